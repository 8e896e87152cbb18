// Red team F7: two distinct upstream tool names must never map to one flow (one stage, canary,
// rollback and gate record for both). A hostile upstream controls every tool name it lists, so the
// mapping is tested as an attacker would use it: a name shaped like another tool's hashed flow
// name, long names that share a truncated prefix, and random names from the whole allowed alphabet.
import { createHash } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { flowWorkflowName, TOOL_NAME_PATTERN } from "@/lib/gateway/tool-names";
import { WORKFLOW_NAME_PATTERN } from "@/lib/policy/profile-id";

const sha = (s: string, n: number) => createHash("sha256").update(s).digest("hex").slice(0, n);

// Tool names from the MCP alphabet, biased towards names that fold onto each other.
const toolChar = fc.constantFrom(
  ..."aAbB01_.-fF9eE".split(""),
  ..."abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-".split(""),
);
const toolName = fc.string({ unit: toolChar, minLength: 1, maxLength: 128 });

describe("flow names of upstream tools", () => {
  it("keeps ordinary folded names as they are (demo seed and existing flows)", () => {
    expect(flowWorkflowName("everything", "echo")).toBe("everything__echo");
    expect(flowWorkflowName("everything", "get_tiny_image")).toBe("everything__get_tiny_image");
  });

  it("gives the tester's pair (Form and form_<hash of Form>) two different flows", () => {
    const victim = flowWorkflowName("evil", "Form");
    // The old 8-hex shape the tester used, and the current 16-hex shape of the victim's flow name.
    for (const attacker of [`form_${sha("Form", 8)}`, victim.slice("evil__".length)]) {
      expect(TOOL_NAME_PATTERN.test(attacker)).toBe(true);
      expect(flowWorkflowName("evil", attacker)).not.toBe(victim);
    }
  });

  it("separates long names that share the truncated prefix, and names that differ only by case or punctuation", () => {
    const long = "a".repeat(100);
    const names = [long, `${long}b`, "Echo", "echo", "e-cho", "e_cho", "e.cho"];
    const flows = names.map((n) => flowWorkflowName("everything", n));
    expect(new Set(flows).size).toBe(names.length);
    for (const f of flows) expect(f).toMatch(WORKFLOW_NAME_PATTERN);
  });

  it("is one-to-one and always a valid flow name (property)", () => {
    fc.assert(
      fc.property(toolName, toolName, fc.constantFrom("x1", "evil", "everything", "a".repeat(24)), (a, b, up) => {
        const fa = flowWorkflowName(up, a);
        expect(fa).toMatch(WORKFLOW_NAME_PATTERN);
        if (a !== b) expect(flowWorkflowName(up, b)).not.toBe(fa);
      }),
      { numRuns: 5000 },
    );
  });

  it("never lets one tool be named after another tool's flow name (property)", () => {
    fc.assert(
      fc.property(toolName, fc.constantFrom("x1", "evil", "everything"), (victim, up) => {
        const flow = flowWorkflowName(up, victim);
        const attacker = flow.slice(up.length + 2);
        fc.pre(attacker !== victim && TOOL_NAME_PATTERN.test(attacker));
        expect(flowWorkflowName(up, attacker)).not.toBe(flow);
      }),
      { numRuns: 5000 },
    );
  });
});
