// The address a request comes from, as a rate-limit key. Behind a trusted proxy (TRUST_PROXY=true)
// it is the last X-Forwarded-For hop: the one our proxy appended. Earlier hops are whatever the
// client wrote and are never trusted. IPv6 addresses are keyed by their /64, because one host
// commonly owns a whole /64 and could otherwise rotate through it to escape the limit.
import type http from "node:http";
import net from "node:net";

function expandV6(ip: string): string[] | undefined {
  const [head, tail, extra] = ip.split("::");
  if (extra !== undefined) return undefined;
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const missing = 8 - left.length - right.length;
  if (tail === undefined ? missing !== 0 : missing < 0) return undefined;
  return [...left, ...Array<string>(tail === undefined ? 0 : missing).fill("0"), ...right];
}

/** A stable key for an address: IPv4 as is, IPv6 as its /64 prefix. */
export function addressKey(ip: string): string {
  const plain = ip.startsWith("::ffff:") && net.isIPv4(ip.slice(7)) ? ip.slice(7) : ip;
  if (net.isIPv4(plain)) return plain;
  const groups = net.isIPv6(plain) && !plain.includes(".") ? expandV6(plain.split("%")[0]!) : undefined;
  if (!groups) return plain;
  return `${groups
    .slice(0, 4)
    .map((g) => parseInt(g, 16).toString(16))
    .join(":")}::/64`;
}

export function clientAddress(req: http.IncomingMessage, trustProxy: boolean): string {
  if (trustProxy) {
    const header = req.headers["x-forwarded-for"];
    const joined = Array.isArray(header) ? header.join(",") : header;
    const last = joined?.split(",").at(-1)?.trim();
    if (last && net.isIP(last)) return addressKey(last);
  }
  return addressKey(req.socket.remoteAddress ?? "unknown");
}
