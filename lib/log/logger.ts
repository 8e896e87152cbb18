// Structured logs, redacted by construction: any field whose name announces a value, a token or a
// secret is censored by pino before it is serialised, at any nesting depth we list. Callers log
// names, keywords, counts and ids; the redaction is the net under that rule, not the rule itself.
import pino from "pino";
import { readSetting } from "@/lib/config/schema";

const SENSITIVE = ["value", "values", "content", "answer", "token", "accessToken", "access_token", "refreshToken", "idToken", "secret", "password", "authorization", "cookie", "code", "code_verifier", "state", "nonce"];

export const REDACT_PATHS = [
  ...SENSITIVE,
  ...SENSITIVE.map((k) => `*.${k}`),
  ...SENSITIVE.map((k) => `*.*.${k}`),
  'req.headers["authorization"]',
  'req.headers["cookie"]',
];

export function createLogger(destination?: pino.DestinationStream) {
  return pino(
    {
      level: readSetting(process.env, "LOG_LEVEL"),
      base: { service: "elicitation-gateway" },
      redact: { paths: REDACT_PATHS, censor: "[redacted]" },
    },
    destination ?? pino.destination(2),
  );
}

export const logger = createLogger();
