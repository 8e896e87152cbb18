// The deliberate defects that prove the gates are refused in production and reject unknown names.
import { describe, expect, it } from "vitest";
import { gateFault, gateFaults } from "@/lib/config/gate-faults";

describe("GATE_TEST_FAULTS", () => {
  it("is off unless named", () => {
    expect(gateFault("log-form-values", {})).toBe(false);
    expect([...gateFaults({ GATE_TEST_FAULTS: "log-form-values" })]).toEqual(["log-form-values"]);
  });
  it("is refused with APP_ENV=production", () => {
    expect(() => gateFaults({ APP_ENV: "production", GATE_TEST_FAULTS: "skip-browser-user-check" })).toThrow(
      /refused with APP_ENV=production/,
    );
  });
  it("rejects an unknown fault name", () => {
    expect(() => gateFaults({ GATE_TEST_FAULTS: "log-form-values,__proto__" })).toThrow(/unknown fault "__proto__"/);
  });
});
