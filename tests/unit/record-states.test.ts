// The record state machine (lib/elicitation/record-states.ts) checked from its own table: every
// state is reachable, terminal states have no exits, every transition a caller in lib/ makes names
// a row of the table (no hand-written `from` list), and the SQL side (the migrations' enum, the
// column default) agrees with it.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { elicitationState } from "@/db/schema";
import {
  allowedSteps,
  checkMove,
  isTerminal,
  isUnfinished,
  movableFrom,
  RECORD_MOVES,
  TERMINAL,
  UNFINISHED,
  type RecordMove,
  type RecordState,
} from "@/lib/elicitation/record-states";

const root = path.resolve(import.meta.dirname, "../..");
const STATES: readonly RecordState[] = elicitationState.enumValues;
const steps = allowedSteps();

function tsFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return tsFiles(p);
    return /\.tsx?$/.test(e.name) ? [p] : [];
  });
}

/** The argument text of every call `name(` in the source, up to its matching parenthesis. */
function callsOf(source: string, name: string): string[] {
  const out: string[] = [];
  const re = new RegExp(`(?<![\\w.])${name}\\(`, "g");
  for (const m of source.matchAll(re)) {
    let depth = 1;
    let i = m.index + m[0].length;
    const start = i;
    for (; i < source.length && depth > 0; i++) {
      if (source[i] === "(") depth++;
      else if (source[i] === ")") depth--;
    }
    out.push(source.slice(start, i - 1));
  }
  return out;
}

const sources = [...tsFiles(path.join(root, "lib")), ...tsFiles(path.join(root, "app"))].map((f) => ({
  file: path.relative(root, f),
  text: fs.readFileSync(f, "utf8"),
}));
// Calls of the guarded transition, not its definition or this module's own helpers.
const transitionCalls = sources
  .filter((s) => s.file !== "lib/elicitation/records.ts" && s.file !== "lib/elicitation/record-states.ts")
  .flatMap((s) => callsOf(s.text, "transition").map((args) => ({ file: s.file, args })))
  .filter((c) => c.args.includes("{"));

describe("the record state machine", () => {
  it("names every state of the enum, and only those", () => {
    const named = new Set(Object.values(RECORD_MOVES).flatMap((m) => [...m.from, ...("via" in m ? m.via : []), ...m.to]));
    expect([...named].sort()).toEqual([...STATES].sort());
  });

  it("reaches every state from `created`, and nothing moves back to `created`", () => {
    const reached = new Set<RecordState>(["created"]);
    for (let grew = true; grew;) {
      grew = false;
      for (const [from, to] of steps) {
        if (reached.has(from) && !reached.has(to)) {
          reached.add(to);
          grew = true;
        }
      }
    }
    expect([...reached].sort()).toEqual([...STATES].sort());
    expect(steps.filter(([, to]) => to === "created")).toEqual([]);
  });

  it("gives terminal states no exits and every other state at least one", () => {
    const leaving = new Set(steps.map(([from]) => from));
    for (const s of TERMINAL) expect(leaving.has(s), `${s} is terminal`).toBe(false);
    for (const s of UNFINISHED) expect(leaving.has(s), `${s} is unfinished`).toBe(true);
    expect([...TERMINAL, ...UNFINISHED].sort()).toEqual([...STATES].sort());
    for (const s of STATES) expect(isTerminal(s)).toBe(!isUnfinished(s));
  });

  it("lets every unfinished state be revoked, and only those", () => {
    expect([...movableFrom("revoke")].sort()).toEqual([...UNFINISHED].sort());
  });

  it("passes through `via` states that are themselves unfinished", () => {
    for (const m of Object.values(RECORD_MOVES)) for (const v of "via" in m ? m.via : []) expect(isUnfinished(v)).toBe(true);
  });

  it("is what every caller in lib/ and app/ uses: each transition names a move, never its own `from` list", () => {
    // Not vacuous: the engine, the connect flow, the grant, the gateway and the resume check all move records.
    expect(transitionCalls.length).toBeGreaterThanOrEqual(25);
    expect(new Set(transitionCalls.map((c) => c.file))).toEqual(
      new Set([
        "lib/elicitation/engine.ts",
        "lib/connect/flow.ts",
        "lib/connect/grant.ts",
        "lib/gateway/elicitation-bridge.ts",
        "lib/gateway/forward-call.ts",
        "lib/gateway/modern-hook.ts",
        "lib/gateway/url-required.ts",
        "lib/mcp/modern/resume-check.ts",
      ]),
    );
    for (const c of transitionCalls) {
      expect(c.args, c.file).not.toMatch(/\b(from|via)\s*:/);
      const move = /\bmove:\s*"(\w+)"/.exec(c.args)?.[1];
      expect(move && Object.hasOwn(RECORD_MOVES, move), `${c.file}: ${c.args}`).toBe(true);
      // Where the target is written out, it is one the move allows (the types check the rest).
      for (const [, to] of c.args.matchAll(/\bto:\s*"(\w+)"/g))
        expect(RECORD_MOVES[move as RecordMove].to as readonly string[], `${c.file}: ${c.args}`).toContain(to);
    }
  });

  it("writes new records only in a state the dispatch move allows", () => {
    const inserts = sources
      .flatMap((s) => callsOf(s.text, "insertRecord").map((args) => ({ file: s.file, args })))
      .filter((c) => c.file !== "lib/elicitation/records.ts");
    expect(inserts.length).toBeGreaterThanOrEqual(3);
    for (const c of inserts) {
      const state = /,\s*"(\w+)"\s*(?:,|$)/.exec(c.args.trim())?.[1];
      expect(RECORD_MOVES.dispatch.to as readonly string[], `${c.file}: ${c.args}`).toContain(state);
    }
  });

  it("refuses a move that does not exist or cannot end where it is asked to", () => {
    expect(() => checkMove("answer", "completed" as never)).toThrow(/cannot end in completed/);
    expect(() => checkMove("revoke", "sent" as never)).toThrow(/cannot end in sent/);
    for (const name of ["__proto__", "constructor", "toString", "nope"])
      expect(() => checkMove(name as RecordMove, "failed")).toThrow(/no record move/);
    expect(checkMove("settleForm", "completed").via).toEqual(["accepted"]);
  });
});

describe("the SQL side of the record states", () => {
  const migrations = fs
    .readdirSync(path.join(root, "db/migrations"))
    .filter((f) => f.endsWith(".sql"))
    .sort()
    .map((f) => fs.readFileSync(path.join(root, "db/migrations", f), "utf8"))
    .join("\n");

  it("the migrations create the enum with exactly the table's states (and add none later)", () => {
    const created = /CREATE TYPE "public"\."elicitation_state" AS ENUM\(([^)]*)\)/.exec(migrations);
    expect(created).not.toBeNull();
    const values = [...created![1]!.matchAll(/'([a-z_]+)'/g)].map((m) => m[1]);
    const added = [...migrations.matchAll(/ALTER TYPE "public"\."elicitation_state" ADD VALUE '([a-z_]+)'/g)].map((m) => m[1]);
    expect([...values, ...added].sort()).toEqual([...STATES].sort());
  });

  it("no CHECK constraint or trigger in the migrations spells out record states of its own", () => {
    // If one ever does, it must be checked against the table here: today the only SQL lists are
    // built from the table at run time (revoke.ts, reconcile.ts, overview.ts).
    const stateLists = [...migrations.matchAll(/state\s+(?:not\s+)?in\s*\(([^)]*)\)/gi)].map((m) => m[1]);
    expect(stateLists).toEqual([]);
  });

  it("a new record row starts as `created`, the state the machine starts from", () => {
    expect(migrations).toMatch(/"state" "elicitation_state" DEFAULT 'created' NOT NULL/);
  });
});
