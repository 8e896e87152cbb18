import { describe, expect, it } from "vitest";
import { isSameOriginPost } from "@/lib/auth/same-origin";

const post = (headers: Record<string, string>) => new Request("http://localhost:3000/x", { method: "POST", headers });

describe("same-origin form posts", () => {
  it("accepts this app's origin, or a withheld origin the browser marks same-origin", () => {
    expect(isSameOriginPost(post({ origin: "http://localhost:3000" }), "http://localhost:3000")).toBe(true);
    expect(isSameOriginPost(post({ origin: "null", "sec-fetch-site": "same-origin" }), "http://localhost:3000")).toBe(true);
  });
  it("refuses another site, and a withheld origin from a cross-site request", () => {
    expect(isSameOriginPost(post({ origin: "https://evil.example" }), "http://localhost:3000")).toBe(false);
    expect(isSameOriginPost(post({ origin: "null", "sec-fetch-site": "cross-site" }), "http://localhost:3000")).toBe(false);
    expect(isSameOriginPost(post({}), "http://localhost:3000")).toBe(false);
  });
});
