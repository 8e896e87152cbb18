import type { ActionResult } from "@/lib/auth/action-result";

// The line under every console form that says what happened: the success text the form chooses,
// or "Refused: " and the server's reason with each field's errors. role=status and aria-live so a
// screen reader hears it; red only when refused.
// "named" lists each field as "name: errors" after the reason; "bare" (the client-profile form's
// established wording) joins the reason and the messages with ": ", for messages that name their field.
export type FieldErrorStyle = "named" | "bare";

export function refusalText(result: { error: string; fieldErrors?: Record<string, string[]> }, style: FieldErrorStyle = "named"): string {
  const entries = Object.entries(result.fieldErrors ?? {});
  if (style === "bare") return `Refused: ${[result.error, ...entries.flatMap(([, e]) => e)].join(": ")}`;
  return `Refused: ${[result.error, ...entries.map(([k, e]) => `${k}: ${e.join(", ")}`)].join("; ")}`;
}

export function StatusLine<T>({
  result,
  done,
  as: Tag = "p",
  testId,
  className = "",
  fieldErrors = "named",
}: {
  result: ActionResult<T> | null;
  done?: (data: T) => string;
  as?: "p" | "span";
  testId?: string;
  className?: string;
  fieldErrors?: FieldErrorStyle;
}) {
  const refused = result !== null && !result.ok;
  const text = result === null ? "" : result.ok ? (done ? done(result.data) : "") : refusalText(result, fieldErrors);
  return (
    <Tag
      role="status"
      aria-live="polite"
      data-testid={testId}
      className={`${className} ${refused ? "text-red-800 dark:text-red-300" : ""}`.trim()}
    >
      {text}
    </Tag>
  );
}

/** A refusal that is not an action's result: invalid URL parameters, shown on the page itself. */
export function RefusedLine({ message, testId = "params-refused" }: { message: string; testId?: string }) {
  return (
    <p role="status" aria-live="polite" data-testid={testId} className="my-2 text-sm text-red-800 dark:text-red-300">
      Refused: {message}
    </p>
  );
}
