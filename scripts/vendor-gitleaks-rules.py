#!/usr/bin/env python3
"""Vendors gitleaks' default rules (config/gitleaks.toml, MIT licence) as JSON data for
lib/elicitation/secret-rules.ts. Run by a maintainer to update the rules:

    python3 scripts/vendor-gitleaks-rules.py path/to/gitleaks/config/gitleaks.toml <commit> \
        > lib/elicitation/gitleaks-rules.json

The rules are Go RE2 regexes; JavaScript (Node 20, no inline modifiers) needs a few rewrites:
  (?i) anywhere / (?i:...)  -> the whole rule gets the "i" flag (broader, so never fewer findings)
  (?-i:...)                 -> (?:...)   (same broadening, on purpose: this is a detector)
  (?s:.)                    -> [\\s\\S]
  (?P<name>...)             -> (...)     (a plain group keeps the secretGroup numbering)
  [[:alnum:]]               -> [A-Za-z0-9]
  \\z                        -> $
tests/unit/secret-rules.test.ts compiles every rule, so a rewrite that goes wrong fails there.
"""
import json
import re
import sys
import tomllib


def to_js(go: str) -> dict:
    flags = "i" if re.search(r"\(\?i[:)]", go) else ""
    s = go.replace("(?i)", "").replace("(?i:", "(?:").replace("(?-i:", "(?:")
    s = s.replace("(?s:.)", r"[\s\S]").replace("[:alnum:]", "A-Za-z0-9").replace(r"\z", "$")
    s = re.sub(r"\(\?P<\w+>", "(", s)
    if re.search(r"\(\?[a-zA-Z-]", s):
        raise SystemExit(f"unconverted Go flag group in: {go}")
    return {"source": s, "flags": flags}


def allowlist(a: dict) -> dict:
    out = {}
    if a.get("regexes"):
        out["regexes"] = [to_js(r) for r in a["regexes"]]
    if a.get("stopwords"):
        out["stopwords"] = [w.lower() for w in a["stopwords"]]
    if a.get("regexTarget"):
        out["regexTarget"] = a["regexTarget"]
    if a.get("condition"):
        out["condition"] = a["condition"]
    if a.get("paths") and not out:
        return {}  # path-only allowlists are about files, which form answers are not
    return out


def main() -> None:
    src, commit = sys.argv[1], sys.argv[2]
    with open(src, "rb") as f:
        cfg = tomllib.load(f)
    rules = []
    for r in cfg["rules"]:
        if "regex" not in r:
            continue  # path-only rules (e.g. pkcs12-file) are about file names
        rule = {"id": r["id"], "regex": to_js(r["regex"]), "keywords": [k.lower() for k in r.get("keywords", [])]}
        if "secretGroup" in r:
            rule["secretGroup"] = r["secretGroup"]
        if "entropy" in r:
            rule["entropy"] = r["entropy"]
        lists = [x for x in (allowlist(a) for a in r.get("allowlists", [])) if x]
        if lists:
            rule["allowlists"] = lists
        rules.append(rule)
    glob = cfg.get("allowlist", {})
    data = {
        "source": "https://github.com/gitleaks/gitleaks/blob/" + commit + "/config/gitleaks.toml",
        "licence": "MIT License, Copyright (c) 2019 Zachary Rice (https://github.com/gitleaks/gitleaks/blob/master/LICENSE)",
        "generatedBy": "scripts/vendor-gitleaks-rules.py",
        "allowlist": {"regexes": [to_js(r) for r in glob.get("regexes", [])], "stopwords": [w.lower() for w in glob.get("stopwords", [])]},
        "rules": rules,
    }
    json.dump(data, sys.stdout, indent=1, ensure_ascii=False)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
