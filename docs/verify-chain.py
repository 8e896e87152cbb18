#!/usr/bin/env python3
"""Re-checks an audit export's hash chain without this project's code (Python 3 standard library).
Usage: verify-chain.py audit.ndjson   (or: cat audit.ndjson.* | verify-chain.py -)
For every line: hash = hex(SHA-256(JCS(entry without "hash"))), and prevHash = the previous hash.
JCS is RFC 8785: members sorted by UTF-16 code units, no whitespace, ECMAScript number form."""
import decimal, hashlib, json, sys

def num(x):  # ECMAScript Number::toString, as RFC 8785 requires
    if isinstance(x, int): return str(x)
    if x == 0: return "0"
    s, digits, exp = decimal.Decimal(repr(x)).normalize().as_tuple()
    d = "".join(map(str, digits)); k = len(d); n = exp + k  # value = 0.d * 10^n
    out = (d + "0" * (n - k)) if k <= n <= 21 else (d[:n] + "." + d[n:]) if 0 < n <= 21 else \
        ("0." + "0" * -n + d) if -6 < n <= 0 else d[0] + ("." + d[1:] if k > 1 else "") + "e" + ("+" if n > 0 else "-") + str(abs(n - 1))
    return ("-" if s else "") + out

def jcs(v):
    if isinstance(v, dict):
        keys = sorted(v, key=lambda k: k.encode("utf-16-be"))
        return "{" + ",".join(json.dumps(k, ensure_ascii=False) + ":" + jcs(v[k]) for k in keys) + "}"
    if isinstance(v, list): return "[" + ",".join(jcs(i) for i in v) + "]"
    if isinstance(v, (int, float)) and not isinstance(v, bool): return num(v)
    return json.dumps(v, ensure_ascii=False)  # strings, true, false, null

prev, count = None, 0
for n, raw in enumerate(sys.stdin.buffer if sys.argv[1:] == ["-"] else open(sys.argv[1], "rb"), 1):
    try:
        line = raw.rstrip(b"\n").decode("utf-8")
        entry = json.loads(line)
        claimed = entry.pop("hash")
        ok = jcs({**entry, "hash": claimed}) == line and hashlib.sha256(jcs(entry).encode("utf-8")).hexdigest() == claimed
    except (ValueError, KeyError, AttributeError, UnicodeError):
        sys.exit(f"line {n}: not an audit entry in canonical form")
    if not ok or (prev is not None and entry["prevHash"] != prev):
        sys.exit(f"line {n}: entry {entry.get('seq')} " + ("was changed" if not ok else "does not link to the entry before it"))
    prev, count = claimed, count + 1
print(f"OK: {count} entries, chain intact, last hash {prev}")
