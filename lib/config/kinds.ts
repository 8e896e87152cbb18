// The kinds of value a setting can hold, as zod schemas over the (trimmed, non-empty) text of one
// environment variable. Each refuses a bad value with a message that says what is expected, so the
// line an operator sees reads "NAME=value: must be ..."; none ever turns a bad value into 0,
// "unlimited" or the default.
import { createPrivateKey } from "node:crypto";
import { z } from "zod";
import type { Kind } from "@/db/config-settings";
import { authorityFindings, rawTextFindings } from "@/lib/policy/url-authority";

// The kinds the store's settings use are defined in db/ (the bottom layer); the rest are here.
export { type Kind, text, wholeNumber } from "@/db/config-settings";

/** A non-negative number of seconds that may have a fraction (tests use sub-second cooldowns). */
export function fractionalSeconds(max: number): Kind<number> {
  const what = `must be a number of seconds from 0 to ${max} (digits, optional fraction)`;
  return z
    .string()
    .regex(/^[0-9]+(\.[0-9]+)?$/, { error: what })
    .transform(Number)
    .pipe(z.number().min(0, { error: what }).max(max, { error: what }));
}

export function flag(): Kind<boolean> {
  return z.enum(["true", "false"], { error: "must be true or false" }).transform((v) => v === "true");
}

export function oneOf<const T extends readonly [string, ...string[]]>(values: T): Kind<T[number]> {
  return z.enum(values, { error: `must be one of ${values.join(", ")}` });
}

/** A symmetric secret typed by hand: long enough that a placeholder such as "x" is refused. */
export function secretText(minLength: number): Kind<string> {
  return z.string().min(minLength, { error: `is too short: use at least ${minLength} random characters` });
}

/** A 32-byte key in base64 (standard or URL alphabet). */
export function base64Key32(): Kind<string> {
  return z.string().refine((v) => /^[A-Za-z0-9+/_-]+=*$/.test(v) && Buffer.from(v, "base64").length === 32, {
    error: "must be 32 bytes, base64-encoded (openssl rand -base64 32)",
  });
}

/** A PKCS#8 PEM private key (the audit signing key). */
export function privateKeyPem(): Kind<string> {
  return z.string().refine(
    (v) => {
      try {
        return createPrivateKey(v).asymmetricKeyType === "ed25519";
      } catch {
        return false;
      }
    },
    { error: "must be an Ed25519 private key in PKCS#8 PEM (openssl genpkey -algorithm ed25519)" },
  );
}

/** An absolute http(s) URL that every parser reads the same way; the value is its origin. */
export function plainOrigin(): Kind<string> {
  return z.string().transform((raw, ctx) => {
    let u: URL;
    try {
      u = new URL(raw);
    } catch {
      ctx.addIssue({ code: "custom", message: "is not an absolute URL" });
      return z.NEVER;
    }
    // "https://connect.example.com\@evil.example" is refused, never silently cut to an origin.
    const ambiguous = [...rawTextFindings(raw), ...authorityFindings(raw, u)].filter((f) => f.severity === "block");
    if (ambiguous.length || (u.protocol !== "https:" && u.protocol !== "http:")) {
      ctx.addIssue({ code: "custom", message: `is not a plain http(s) origin: ${ambiguous.map((f) => f.code).join(", ") || "scheme"}` });
      return z.NEVER;
    }
    return u.origin;
  });
}

/** An absolute http(s) URL (kept as written, trailing slash removed). */
export function httpUrl(): Kind<string> {
  return z.string().refine(
    (v) => {
      try {
        const u = new URL(v);
        return u.protocol === "https:" || u.protocol === "http:";
      } catch {
        return false;
      }
    },
    { error: "must be an absolute http(s) URL" },
  );
}

/** Comma-separated exact origins: scheme, host and port, no path, no wildcard, no trailing slash. */
export function originList(): Kind<string[]> {
  return z.string().transform((raw, ctx) => {
    const out: string[] = [];
    for (const entry of raw.split(",")) {
      const value = entry.trim();
      let url: URL | undefined;
      try {
        url = new URL(value);
      } catch {
        url = undefined;
      }
      if (!url || (url.protocol !== "https:" && url.protocol !== "http:") || url.origin !== value || value.includes("*")) {
        ctx.addIssue({
          code: "custom",
          message: `has "${value.slice(0, 80)}", which is not an exact origin such as https://app.example.com (scheme, host, optional port; nothing else)`,
        });
        return z.NEVER;
      }
      out.push(value);
    }
    return out;
  });
}
