// The rate-limit key of a request's address: only the hop our own proxy appended counts (and only
// with TRUST_PROXY), IPv4-mapped IPv6 is IPv4, and IPv6 is keyed by its /64 so one host cannot
// rotate through its prefix to escape the limit.
import type http from "node:http";
import { describe, expect, it } from "vitest";
import { addressKey, clientAddress } from "@/lib/abuse/client-address";

const req = (remoteAddress: string, xff?: string | string[]) =>
  ({ socket: { remoteAddress }, headers: xff === undefined ? {} : { "x-forwarded-for": xff } }) as unknown as http.IncomingMessage;

describe("client address", () => {
  it("ignores X-Forwarded-For unless the proxy is trusted", () => {
    expect(clientAddress(req("192.0.2.1", "198.51.100.7"), false)).toBe("192.0.2.1");
  });

  it("behind a trusted proxy takes the last hop, never the client-written first ones", () => {
    expect(clientAddress(req("10.0.0.1", "1.1.1.1, 198.51.100.7"), true)).toBe("198.51.100.7");
    expect(clientAddress(req("10.0.0.1", ["1.1.1.1", "198.51.100.8"]), true)).toBe("198.51.100.8");
  });

  it("falls back to the socket address when the last hop is not an address", () => {
    for (const bad of ["", "nonsense", "1.1.1.1, ", "999.1.1.1", "__proto__", "x".repeat(10_000)])
      expect(clientAddress(req("10.0.0.1", bad), true)).toBe("10.0.0.1");
  });

  it("keys IPv6 by /64 and IPv4-mapped addresses as IPv4", () => {
    expect(addressKey("::ffff:203.0.113.9")).toBe("203.0.113.9");
    expect(addressKey("2001:db8:1:2:aaaa::1")).toBe("2001:db8:1:2::/64");
    expect(addressKey("2001:db8:1:2:ffff:ffff:ffff:ffff")).toBe("2001:db8:1:2::/64");
    expect(addressKey("2001:0db8:0001:0002::")).toBe("2001:db8:1:2::/64");
    expect(addressKey("::1")).toBe("0:0:0:0::/64");
    expect(addressKey("fe80::1%eth0")).toBe("fe80:0:0:0::/64");
  });
});
