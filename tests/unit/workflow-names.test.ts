import { describe, expect, it } from "vitest";
import { WORKFLOW_NAMES } from "@/lib/workflows/names";
import { WORKFLOWS } from "@/lib/workflows/registry";

describe("workflow names", () => {
  it("list exactly the registry's workflows, so a name check never disagrees with what is served", () => {
    expect([...WORKFLOW_NAMES].sort()).toEqual(WORKFLOWS.map((w) => w.name).sort());
  });
});
