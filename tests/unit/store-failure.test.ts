import { describe, expect, it } from "vitest";
import { storeFailureOf } from "@/db/errors";

// Drizzle wraps the driver's error; the classification must look through `cause`.
const wrapped = (cause: object) => Object.assign(new Error("Failed query: insert into t values ($1)\nparams: x"), { cause });

describe("store failure classification", () => {
  it.each([
    [{ code: "25006", message: "cannot execute INSERT in a read-only transaction" }, "read_only"],
    [{ code: "53100", message: "could not extend file: No space left on device" }, "disk_full"],
    [{ code: "57P01", message: "terminating connection due to administrator command" }, "unavailable"],
    [{ code: "57P03", message: "the database system is starting up" }, "unavailable"],
    [{ code: "08006", message: "connection failure" }, "unavailable"],
    [{ code: "ECONNREFUSED", message: "connect ECONNREFUSED 127.0.0.1:5432" }, "unavailable"],
    [{ code: "CONNECTION_CLOSED", message: "write CONNECTION_CLOSED" }, "unavailable"],
  ])("%o is %s", (cause, kind) => {
    expect(storeFailureOf(wrapped(cause))).toBe(kind);
  });

  it("leaves bugs and constraint violations alone", () => {
    expect(storeFailureOf(wrapped({ code: "23505", message: "duplicate key" }))).toBeUndefined();
    expect(storeFailureOf(new TypeError("x is undefined"))).toBeUndefined();
  });
});
