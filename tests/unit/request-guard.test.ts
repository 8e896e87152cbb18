// The cross-site guard every mutating route handler goes through (lib/auth/request-guard.ts).
import { describe, expect, it } from "vitest";
import { crossSiteRefusal, type BodyKind } from "@/lib/auth/request-guard";

const APP = "http://localhost:3000";
const req = (headers: Record<string, string>) => new Request(`${APP}/api/console/kill-switch`, { method: "POST", headers });
const verdict = (headers: Record<string, string>, body: BodyKind) => crossSiteRefusal(req(headers), APP, body)?.status ?? "ok";

describe("cross-site guard", () => {
  it.each<[string, Record<string, string>, BodyKind, number | "ok"]>([
    ["this app's origin, JSON", { origin: APP, "content-type": "application/json" }, "json", "ok"],
    ["this app's origin, JSON with charset", { origin: APP, "content-type": "Application/JSON; charset=utf-8" }, "json", "ok"],
    ["this app's origin, form", { origin: APP, "content-type": "application/x-www-form-urlencoded" }, "form", "ok"],
    ["withheld origin, same-origin fetch metadata", { origin: "null", "sec-fetch-site": "same-origin" }, "form", "ok"],
    ["no browser headers at all, JSON (a script, not a browser)", { "content-type": "application/json" }, "json", "ok"],
    ["another site", { origin: "https://evil.example", "content-type": "application/json" }, "json", 403],
    [
      "same host, another port (same site, other origin)",
      { origin: "http://localhost:4000", "content-type": "application/json" },
      "json",
      403,
    ],
    ["same host name over https", { origin: "https://localhost:3000", "content-type": "application/json" }, "json", 403],
    [
      "an origin that only starts like ours",
      { origin: "http://localhost:3000.evil.example", "content-type": "application/json" },
      "json",
      403,
    ],
    ["a subdomain", { origin: "http://sub.localhost:3000", "content-type": "application/json" }, "json", 403],
    ["text/plain simple request from our origin (JSON route)", { origin: APP, "content-type": "text/plain" }, "json", 415],
    ["no-cors form post to a JSON route", { origin: APP, "content-type": "application/x-www-form-urlencoded" }, "json", 415],
    ["withheld origin, same-site fetch metadata", { origin: "null", "sec-fetch-site": "same-site" }, "form", 403],
    ["withheld origin, cross-site fetch metadata", { "sec-fetch-site": "cross-site", "content-type": "application/json" }, "json", 403],
    ["user-typed navigation metadata", { "sec-fetch-site": "none" }, "form", 403],
    ["null origin without fetch metadata", { origin: "null", "content-type": "application/json" }, "json", 403],
    ["no browser headers at all, form", {}, "form", 403],
    ["no browser headers at all, upload", { "content-type": "application/x-tar" }, "upload", 403],
    ["download from this app's page", { "sec-fetch-site": "same-origin" }, "download", "ok"],
    ["download by a typed URL", { "sec-fetch-site": "none" }, "download", "ok"],
    ["download by a script (no browser headers)", {}, "download", "ok"],
    ["download by an <img> on another port of the same host", { "sec-fetch-site": "same-site" }, "download", 403],
    ["download from another site", { "sec-fetch-site": "cross-site" }, "download", 403],
    ["download announcing another origin", { origin: "http://localhost:3001" }, "download", 403],
  ])("%s", (_name, headers, body, expected) => {
    expect(verdict(headers, body)).toBe(expected);
  });
});
