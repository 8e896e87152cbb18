#!/usr/bin/env python3
"""Writes tests/fixtures/credential-corpus.json: ordinary values that must pass the credential check and
named evasions that must not (issue 11 item 10). Deterministic (fixed seed): tokens are synthetic
random strings in each vendor's format, never issued. Add new cases at the END of the script so the
random values of the existing ones stay the same. Run: python3 scripts/generate-credential-corpus.py
"""
import base64, hashlib, json, os, random, string, uuid
R = random.Random(20261130)
A = string.ascii_letters + string.digits
def rnd(n, alpha=A): return ''.join(R.choice(alpha) for _ in range(n))
def luhn_ok(d):
    s=0; dbl=False
    for ch in reversed(d):
        x=int(ch)
        if dbl:
            x*=2
            if x>9: x-=9
        s+=x; dbl=not dbl
    return s%10==0
ordinary=[]
def o(name, value): ordinary.append({"name": name, "value": value})
# report titles
for t in ["risk-assessment-for-q3-2026","task-tracking-dashboard-v2","Quarterly revenue report Q3 2026","incident-review-2026-11-02","security-awareness-training-2027","api-gateway-migration-plan","token-bucket-rate-limiter-design","password-reset-flow-ux-review","secret-santa-2026-signup","auth-service-v2-rollout","Bearer of bad news: churn analysis","Basic income pilot results 2025","key-results-okr-h1-2026","access-review-checklist-v3","credential-rotation-runbook","sk-telecom-partnership-brief","ghost-kitchen-market-study","akia-river-survey-2024","Project Aurora – final report","customer-onboarding-journey-map-v4"]:
    o(f"report title: {t}", t)
# slugs
slugs=["my-first-post","hello-world","getting-started-with-nextjs","how-to-bake-sourdough","2026-annual-general-meeting","team-offsite-berlin","product-launch-checklist","release-notes-v1-2-3","faq","terms-of-service","privacy-policy-2026","cookie-consent-banner","dark-mode-toggle","user-research-synthesis","a11y-audit-findings","design-system-tokens","ci-cd-pipeline-overview","kubernetes-upgrade-1-31","postgres-16-upgrade","feature-flag-cleanup","sprint-42-retro","q4-hiring-plan","board-deck-draft-3","vendor-evaluation-matrix","data-retention-policy","gdpr-dsar-process","oncall-handbook","load-test-results-nov","mobile-app-store-listing","partner-api-docs-v1"]
for s in slugs: o(f"slug: {s}", s)
for p in ["Apollo","Project Nightingale","Bluebird 2.0","Elicitation Gateway","Team Phoenix","Moonshot-7","Orion Data Lake","Hydra","Atlas CRM","Skunkworks","Polaris","Quantum Leap","Nimbus Cloud Migration","Falcon Heavy Lifting","Zephyr UI"]:
    o(f"project name: {p}", p)
for i in range(10): o(f"UUID v5 #{i}", str(uuid.uuid5(uuid.NAMESPACE_URL, f"https://example.com/item/{i}")))
for i in range(5): o(f"UUID v4 #{i}", str(uuid.UUID(int=R.getrandbits(128), version=4)))
o("UUID upper-case", str(uuid.uuid5(uuid.NAMESPACE_DNS, "example.org")).upper())
o("UUID without dashes", uuid.uuid5(uuid.NAMESPACE_DNS, "example.net").hex)
for d in ["2026-11-30","30.11.2026","11/30/2026","2026-11-30T18:00:00Z","2026-11-30T18:00:00.123+01:00","30 November 2026","Nov 30, 2026","2026-W48","20261130","1999-12-31 23:59:59","Mon, 30 Nov 2026 18:00:00 GMT","2026-11-30/2026-12-07","Q3 2026","FY2026/27","1732982400"]:
    o(f"date: {d}", d)
for v in ["1.0.0","v2.3.4","10.12.1-beta.3","0.0.1-alpha+build.20261130","2026.11.30","v16.4.6","3.11.7","1.2","release-2026.48.1","22.23.5","5.9.3-rc.1","4.1.12","v1.0.0-rc.1+sha.5114f85","8.0.0-SNAPSHOT","13.1.0"]:
    o(f"version: {v}", v)
for w in ["hello world","","The quick brown fox jumps over the lazy dog","elicitation gateway","MIT License","README.md","package-lock.json"]:
    o(f"sha256 of '{w}'", hashlib.sha256(w.encode()).hexdigest())
    o(f"sha1 of '{w}'", hashlib.sha1(w.encode()).hexdigest())
for w in ["hello world","abc"]:
    o(f"md5 of '{w}'", hashlib.md5(w.encode()).hexdigest())
    o(f"sha512 of '{w}'", hashlib.sha512(w.encode()).hexdigest())
o("git commit id (gitleaks)", "b58d3f102cf3a2c84cb7f923d05c25c9b1aed84b")
o("short git commit", "5525751")
o("docker image digest", "sha256:" + hashlib.sha256(b"nginx:1.27").hexdigest())
o("subresource integrity", "sha384-" + base64.b64encode(hashlib.sha384(b"jquery").digest()).decode())
for isbn in ["978-3-16-148410-0","9780306406157","978-0-596-52068-7","979-10-90636-07-1","0-306-40615-2","3-598-21500-2","ISBN 978-1-4028-9462-6","978 0 7432 7356 5","9783161484100","ISBN-13: 978-3-16-148410-0"]:
    o(f"ISBN {isbn}", isbn)
# phone-like, failing Luhn (checked)
phones=[]
while len(phones)<12:
    d = R.choice(["4","5","3","6","2"]) + ''.join(R.choice(string.digits) for _ in range(R.choice([12,13,14,15]) ))
    if not luhn_ok(d): phones.append(d)
fmt=lambda d: ' '.join([d[:4], d[4:8], d[8:12], d[12:]])
for i,d in enumerate(phones[:6]): o(f"phone-like number failing Luhn #{i}", fmt(d))
for i,d in enumerate(phones[6:]): o(f"phone-like digits failing Luhn, unseparated #{i}", d)
for p in ["+49 30 1234 5678","+380 44 123 4567","+1 (555) 123-4567","+44 20 7946 0958","+49 4111 1111 1111 1"]:
    o(f"international phone {p}", p)
for t in ["Sehr geehrte Damen und Herren, anbei der Bericht.","Die Besprechung findet am Montag um 10 Uhr statt.","Bitte prüfen Sie die Unterlagen bis Freitag.","Straße, Größe, Übermaß und Ärger","Vielen Dank für Ihre schnelle Rückmeldung!","Der Schlüssel liegt im Büro auf dem Schreibtisch.","Passwort vergessen? Bitte wenden Sie sich an den Support.","Zugangsdaten werden separat per Post verschickt.","Rechnungsnummer RE-2026-000123 vom 30.11.2026","Kundennummer 4711, Auftrag 0815","Geheimnis der Berge: Reisebericht 2026","Datenschutzerklärung gemäß DSGVO Art. 13","Überweisung auf Konto DE89 3704 0044 0532 0130 00","Die Sitzung wurde auf 14:30 Uhr verschoben.","Grüße aus München","Öffnungszeiten: Mo–Fr 08:00–18:00","Bestellung Nr. 2026/11/30-0042","Fußgängerzone Köln, Hohe Straße 52","Tschüss und bis bald!","Zertifikat gültig bis 31.12.2027"]:
    o(f"German: {t[:30]}", t)
for t in ["Доброго дня! Надсилаю звіт за третій квартал.","Зустріч відбудеться у понеділок о 10:00.","Будь ласка, перевірте документи до п'ятниці.","Дякую за швидку відповідь!","Ключ від офісу лежить на столі.","Забули пароль? Зверніться до служби підтримки.","Рахунок № 2026-000123 від 30.11.2026","Київ, вул. Хрещатик, 22","Слава Україні!","Таємниця гір: звіт про подорож 2026","Політика конфіденційності відповідно до GDPR","Засідання перенесено на 14:30.","Вітаємо з Новим роком!","Замовлення № 2026/11/30-0042","Щиро дякуємо за співпрацю.","Токен доступу видається адміністратором.","ґанок, їжак, єнот, щука","Оцінка ризиків на Q3 2026","Приватний ключ зберігається в сховищі.","Робочий час: Пн–Пт 08:00–18:00"]:
    o(f"Ukrainian: {t[:30]}", t)
for name,v in [("email address","alice.smith@example.com"),("URL","https://example.com/docs/getting-started?lang=de#install"),("file path","/home/alice/projects/report-2026.pdf"),("Windows path","C:\\Users\\Alice\\Documents\\Q3.xlsx"),("IPv4 address","203.0.113.7"),("IPv6 address","2001:db8::8a2e:370:7334"),("MAC address","00:1A:2B:3C:4D:5E"),("colour hex","#1e90ff"),("base64 of a sentence",base64.b64encode(b"Hello from the elicitation gateway").decode()),("JSON snippet",'{"name": "Alice", "role": "admin"}'),("markdown heading","## Key findings: auth latency down 12%"),("price","EUR 1,234,567.89"),("big number","1,000,000,000,000,000"),("scientific","6.02214076e23"),("coordinates","52.5200, 13.4050"),("order id","ORD-2026-11-30-000042"),("ticket","JIRA-12345"),("emoji text","Great job team! 🎉🚀"),("CSS","color: red; margin: 0 auto;"),("SQL-ish text","SELECT name FROM projects WHERE year = 2026"),("a sentence with key=value","the key=value pairs are documented in section 4"),("config hint","api_key: see the vault entry named billing"),("token word alone","token"),("bearer short","Bearer 123"),("Basic word","Basic plan"),("private key mention","Where is the private key stored?"),("placeholder token","ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"),("AWS example key","AKIAIOSFODNN7EXAMPLE"),("long hex (public sha256 hex) with label","checksum: " + hashlib.sha256(b"release.tar.gz").hexdigest()),("semver range","^1.2.3 || ~2.0.0"),("NFKC fullwidth title","ｒｅｐｏｒｔ－２０２６"),("German with zero-width joiner","Bericht\u200dEntwurf"),("Greek text","Καλημέρα κόσμε"),("mixed script name","Олена Smith")]:
    o(name, v)
# ---- evasions
ev=[]
def e(name, value, shape): ev.append({"name": name, "value": value, "shape": shape})
gh = "ghp_" + rnd(36)
jwt_h = base64.urlsafe_b64encode(b'{"alg":"HS256","typ":"JWT"}').decode().rstrip("=")
jwt_p = base64.urlsafe_b64encode(b'{"sub":"user-7421","tenant":"acme","exp":1798761600}').decode().rstrip("=")
jwt = f"{jwt_h}.{jwt_p}.{rnd(43, A+'-_')}"
e("card number with dots", "4111.1111.1111.1111", "card_number")
e("JWT with a zero-width space inside", jwt[:25] + "\u200b" + jwt[25:], "jwt")
e("Bearer <token>", "Bearer " + rnd(40, A+"-._~"), "bearer_token")
e("Authorization: Bearer header", "Authorization: Bearer " + rnd(32), "bearer_token")
e("Authorization: Basic header", "Authorization: Basic " + base64.b64encode(b"deploy-bot:Tr0ub4dor&3xyz").decode(), "bearer_token")
e("curl with an Authorization header", f'curl -H "Authorization: Bearer {rnd(40)}" https://api.example.com/v1/me', "bearer_token")
e("token=... assignment", "token=" + rnd(32), "secret_assignment")
e("api_key: ... assignment", "api_key: " + rnd(40), "secret_assignment")
e("password= in a connection note", "password=" + rnd(20), "secret_assignment")
e("client_secret in JSON", '{"client_secret": "' + rnd(36) + '"}', "secret_assignment")
e("JWT on its own", jwt, "jwt")
e("JWT after Bearer", "Bearer " + jwt, "jwt")
e("GitHub token in double quotes", f'"{gh}"', "known_token")
e("GitHub token in single quotes", f"'{gh}'", "known_token")
e("GitHub token in backticks", f"`{gh}`", "known_token")
e("GitHub token in parentheses", f"({gh})", "known_token")
e("GitHub token in square brackets", f"[{gh}]", "known_token")
e("GitHub token in curly braces", "{" + gh + "}", "known_token")
e("GitHub token in angle brackets", f"<{gh}>", "known_token")
e("GitHub token in guillemets", f"«{gh}»", "known_token")
e("GitHub token split by zero-width joiners", "\u200d".join([gh[:6], gh[6:20], gh[20:]]), "known_token")
e("GitHub token split by zero-width non-joiners", "\u200c".join([gh[:4], gh[4:]]), "known_token")
e("GitHub token split by word joiner and soft hyphen", gh[:10] + "\u2060" + gh[10:20] + "\u00ad" + gh[20:], "known_token")
e("GitHub token with a BOM inside", gh[:3] + "\ufeff" + gh[3:], "known_token")
e("GitHub token in fullwidth letters", ''.join(chr(ord(c)+0xFEE0) if 0x21<=ord(c)<=0x7e else c for c in gh), "known_token")
e("GitHub token with a Cyrillic р in the prefix", gh.replace("p", "\u0440", 1), "known_token")
ak = "AKIA" + rnd(16, "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")
e("AWS access key id with a Cyrillic А", "\u0410" + ak[1:], "known_token")
sk = "sk_live_" + rnd(24)
e("Stripe key with a Cyrillic ѕ and і", "\u0455k_l\u0456ve_" + sk[8:], "known_token")
e("Slack token with Cyrillic о and х", "x\u043e\u0445b-" + "1234567890123-1234567890123-" + rnd(24), "known_token")
for i,(c,name) in enumerate([("4111 1111-1111.1111","Visa, mixed separators"),("5555_5555/5555 4444","Mastercard, underscore and slash"),("3782 822463 10005","Amex 4-6-5 grouping"),("6011\u00a01111\u00a01111\u00a01117","Discover with no-break spaces"),("3530–1113–3330–0000","JCB with en dashes"),("2223 0031 2200 3222","Mastercard 2-series"),("3056 9309 0259 04","Diners 14 digits"),("4 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1","Visa digit by digit"),("4111 1111 1111 1111 0000","Visa with a trailing group"),("card: 4111111111111111, exp 12/29","Visa in a sentence"),("４１１１ １１１１ １１１１ １１１１","Visa in fullwidth digits"),("4111\u200b1111\u200b1111\u200b1111","Visa split by zero-width spaces")]):
    e(f"card number: {name}", c, "card_number")
pem_body = "\r\n".join(base64.b64encode(bytes(R.getrandbits(8) for _ in range(48))).decode() for _ in range(6))
e("PEM RSA private key with CRLF", f"-----BEGIN RSA PRIVATE KEY-----\r\n{pem_body}\r\n-----END RSA PRIVATE KEY-----\r\n", "private_key")
e("PEM PKCS#8 private key with CRLF", f"-----BEGIN PRIVATE KEY-----\r\n{pem_body}\r\n-----END PRIVATE KEY-----", "private_key")
e("PEM EC private key, header only", "-----BEGIN EC PRIVATE KEY-----\r\nMHcCAQEEI", "private_key")
e("OpenSSH private key", f"-----BEGIN OPENSSH PRIVATE KEY-----\n{pem_body}\n-----END OPENSSH PRIVATE KEY-----", "private_key")
e("PEM header split by a zero-width space", "-----BEGIN RSA PRI\u200bVATE KEY-----\n" + pem_body, "private_key")
e("PuTTY private key", "PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none", "private_key")
e("AWS access key id", ak, "known_token")
e("AWS temporary access key id", "ASIA" + rnd(16, "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"), "known_token")
e("GitHub personal access token", gh, "known_token")
e("GitHub OAuth token", "gho_" + rnd(36), "known_token")
e("GitHub fine-grained token", "github_pat_" + rnd(22) + "_" + rnd(59), "known_token")
e("GitHub app installation token", "ghs_" + rnd(36), "known_token")
e("Slack bot token", "xoxb-" + "".join(R.choice(string.digits) for _ in range(12)) + "-" + "".join(R.choice(string.digits) for _ in range(13)) + "-" + rnd(24), "known_token")
e("Slack user token", "xoxp-" + "".join(R.choice(string.digits) for _ in range(12)) + "-" + "".join(R.choice(string.digits) for _ in range(12)) + "-" + "".join(R.choice(string.digits) for _ in range(13)) + "-" + rnd(32, "0123456789abcdef"), "known_token")
e("Slack webhook URL", "https://hooks.slack.com/services/T" + rnd(10,string.ascii_uppercase+string.digits) + "/B" + rnd(10,string.ascii_uppercase+string.digits) + "/" + rnd(24), "known_token")
e("Stripe live secret key", sk, "known_token")
e("Stripe restricted key", "rk_live_" + rnd(24), "known_token")
e("Stripe test key", "sk_test_" + rnd(24), "known_token")
e("OpenAI project key", "sk-proj-" + rnd(74, A+"-_") + "T3BlbkFJ" + rnd(74, A+"-_"), "known_token")
e("OpenAI legacy key", "sk-" + rnd(20) + "T3BlbkFJ" + rnd(20), "known_token")
e("Anthropic API key", "sk-ant-api03-" + rnd(93, A+"-_") + "AA", "known_token")
e("Anthropic admin key", "sk-ant-admin01-" + rnd(93, A+"-_") + "AA", "known_token")
e("Google API key", "AIza" + rnd(35, A+"-_"), "known_token")
e("Google API key at the end of a sentence", "our key is AIza" + rnd(35, A+"-_") + ".", "known_token")
e("GitLab personal access token", "glpat-" + rnd(20, A+"-_"), "known_token")
e("npm token", "npm_" + rnd(36), "known_token")
e("Hugging Face token", "hf_" + rnd(34, string.ascii_letters), "known_token")
e("SendGrid key", "SG." + rnd(22, A+"-_") + "." + rnd(43, A+"-_"), "known_token")
e("GitHub token with a variation selector inside", gh[:12] + "\ufe0f" + gh[12:], "known_token")
e("GitHub token with a combining grapheme joiner inside", gh[:8] + "\u034f" + gh[8:], "known_token")
e("GitHub token with a Hangul filler inside", gh[:8] + "\u3164" + gh[8:], "known_token")
e("JWT with a right-to-left mark inside", jwt[:30] + "\u200f" + jwt[30:], "jwt")
e("card number with a Mongolian vowel separator", "4111\u180e1111\u180e1111\u180e1111", "card_number")
json.dump({"about": "Credential detection corpora (issue 11 item 10). 'ordinary' values must pass credentialShape unflagged; 'evasions' must be flagged with the given shape. Tokens are synthetic (random, never issued).", "ordinary": ordinary, "evasions": ev}, open(os.path.join(os.path.dirname(__file__), "..", "tests", "fixtures", "credential-corpus.json"), "w"), ensure_ascii=True, indent=1)
print(len(ordinary), len(ev))
names=[x["name"] for x in ordinary+ev]; assert len(names)==len(set(names)), [n for n in names if names.count(n)>1]
