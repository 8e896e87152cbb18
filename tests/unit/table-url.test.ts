import { describe, expect, it } from "vitest";
import { tableHref } from "@/components/ui/table-url";

describe("tableHref (the data table's sort, page and remove-filter links)", () => {
  const url = { path: "/console/records", params: { state: "sent", mode: undefined, sort: "newest" }, defaults: { sort: "newest" } };

  it("keeps the applied filters, leaves defaults and empty values out", () => {
    expect(tableHref(url, {})).toBe("/console/records?state=sent");
    expect(tableHref(url, { sort: "oldest" })).toBe("/console/records?state=sent&sort=oldest");
  });

  it("adds a cursor and removes a parameter", () => {
    expect(tableHref(url, { after: "1700000000000_0123456789abcdef0123456789abcdef" })).toBe(
      "/console/records?state=sent&after=1700000000000_0123456789abcdef0123456789abcdef",
    );
    expect(tableHref(url, { state: undefined })).toBe("/console/records");
  });

  it("encodes values, so a filter value cannot add a parameter", () => {
    expect(tableHref({ path: "/console/audit", params: { actor: "a&before=1#x" } }, {})).toBe("/console/audit?actor=a%26before%3D1%23x");
  });

  it("never reads a default from the prototype", () => {
    expect(tableHref({ path: "/p", params: { toString: "x", constructor: "y" }, defaults: {} }, {})).toBe("/p?toString=x&constructor=y");
  });
});
