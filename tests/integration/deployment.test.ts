// The deployment on paper, checked where this machine can: the Dockerfile's paths, scripts and
// entry point exist; the runtime stage's files, copied alone into a clean directory, start `ctl`
// (config check, and `serve` loading its whole module graph up to the missing build); the
// Kubernetes example's probes, labels, timeouts and variables agree with the app and its schema.
import { spawn } from "node:child_process";
import { randomBytes, generateKeyPairSync } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseAllDocuments } from "yaml";
import { COMMANDS } from "@/lib/cli/dispatch";
import { parseConfig, readSetting } from "@/lib/config/schema";
import { PLATFORM_VARIABLES, SETTINGS, type SettingName } from "@/lib/config/settings";

const root = path.resolve(import.meta.dirname, "../..");
const pkg = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as {
  scripts: Record<string, string>;
  dependencies: Record<string, string>;
};

interface Instruction {
  op: string;
  args: string;
  stage: string;
}

/** The Dockerfile as instructions (continuation lines joined, comments dropped), each with its stage. */
function dockerfile(): Instruction[] {
  const text = fs.readFileSync(path.join(root, "deploy/Dockerfile"), "utf8").replace(/\\\n\s*/g, " ");
  let stage = "";
  return text
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith("#"))
    .map((l) => {
      const [, op, args] = /^([A-Z]+)\s+(.*)$/.exec(l)!;
      if (op === "FROM") stage = /\sAS\s+(\S+)/i.exec(args!)?.[1] ?? "";
      return { op: op!, args: args!, stage };
    });
}

// Manifests are read as plain data; the assertions below are what types them.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Manifest = Record<string, any>;
const kube = (file: string): Manifest =>
  parseAllDocuments(fs.readFileSync(path.join(root, "deploy/kubernetes", file), "utf8")).map((d) => d.toJS() as Manifest)[0]!;

// Only what the image would have: no variable of the test process leaks into the clean run.
function childEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const out: Record<string, string> = { PATH: process.env.PATH ?? "", HOME: os.tmpdir(), ...env };
  return out as NodeJS.ProcessEnv;
}

function run(cwd: string, args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ["node_modules/tsx/dist/cli.mjs", "lib/cli/main.ts", ...args], {
    cwd,
    env: childEnv(env),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => (stdout += d));
  child.stderr.on("data", (d) => (stderr += d));
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

/** The configuration of the Kubernetes example with its placeholders replaced by valid values. */
function exampleEnvironment(): Record<string, string> {
  const real: Record<string, string> = {
    DATABASE_URL: "postgres://app:pw@127.0.0.1:1/elicitation",
    SESSION_SECRET: randomBytes(48).toString("base64"),
    CONNECT_NONCE_KEY: randomBytes(48).toString("base64"),
    VAULT_KEY: randomBytes(32).toString("base64"),
    MCP_REQUEST_STATE_KEY: randomBytes(32).toString("base64"),
    METRICS_TOKEN: randomBytes(24).toString("base64"),
    OIDC_CLIENT_SECRET: randomBytes(24).toString("base64"),
    AUDIT_SIGNING_KEY: generateKeyPairSync("ed25519").privateKey.export({ format: "pem", type: "pkcs8" }).toString(),
  };
  const secret = kube("secret.yaml").stringData as Record<string, string>;
  expect(Object.keys(secret).sort()).toEqual(Object.keys(real).sort());
  const container = kube("deployment.yaml").spec.template.spec.containers[0];
  const env = Object.fromEntries((container.env as Array<{ name: string; value: string }>).map((e) => [e.name, e.value]));
  return { ...(kube("configmap.yaml").data as Record<string, string>), ...real, ...env };
}

const clean = fs.mkdtempSync(path.join(os.tmpdir(), "deployment-"));
afterAll(() => fs.rmSync(clean, { recursive: true, force: true }));

describe("deploy/Dockerfile", () => {
  const steps = dockerfile();

  it("is multi-stage, builds for production and runs as a non-root user", () => {
    const stages = steps.filter((s) => s.op === "FROM").map((s) => s.stage);
    expect(stages).toEqual(["deps", "build", "runtime"]);
    const runtime = steps.filter((s) => s.stage === "runtime");
    expect(runtime.filter((s) => s.op === "USER").map((s) => s.args)).toEqual(["node"]);
    // The user is set after the last RUN (nothing runs as root after it) and before the entry point.
    const idx = (op: string) => runtime.findLastIndex((s) => s.op === op);
    expect(idx("USER")).toBeGreaterThan(idx("RUN"));
    expect(steps.some((s) => s.stage === "build" && s.args === "npm run build")).toBe(true);
    expect(steps.some((s) => s.stage === "build" && /^npm prune --omit=dev/.test(s.args))).toBe(true);
  });

  it("uses only paths that exist in the repository or that an earlier stage produced", () => {
    const produced = new Set([".next", "node_modules"]);
    for (const s of steps.filter((x) => x.op === "COPY")) {
      const parts = s.args.split(/\s+/);
      const fromStage = parts.find((p) => p.startsWith("--from="))?.slice(7);
      const sources = parts.filter((p) => !p.startsWith("--")).slice(0, -1);
      for (const src of sources) {
        const rel = fromStage ? src.replace(/^\/app\//, "") : src;
        expect(fs.existsSync(path.join(root, rel)) || (fromStage !== undefined && produced.has(rel)), `${s.args}: ${rel}`).toBe(true);
      }
    }
  });

  it("runs npm scripts that exist, and every runtime import survives `npm prune --omit=dev`", () => {
    for (const s of steps.filter((x) => x.op === "RUN")) {
      const script = /npm run (\S+)/.exec(s.args)?.[1];
      if (script) expect(pkg.scripts[script], script).toBeDefined();
    }
    // Bare package imports of the code the runtime runs or builds (type-only imports vanish).
    const walk = (d: string): string[] =>
      fs
        .readdirSync(path.join(root, d), { withFileTypes: true })
        .flatMap((e) => (e.isDirectory() ? walk(path.join(d, e.name)) : /\.tsx?$/.test(e.name) ? [path.join(d, e.name)] : []));
    const files = ["lib", "db", "app", "components"].flatMap(walk);
    const packages = new Set<string>();
    for (const f of files) {
      const text = fs.readFileSync(path.join(root, f), "utf8");
      for (const m of text.matchAll(
        /^import (?!type )[^;]*?from "([^".@/][^"]*|@[^/"]+\/[^"]+)";|import\("([^".@/][^"]*|@[^/"]+\/[^"]+)"\)/gm,
      )) {
        const spec = m[1] ?? m[2]!;
        if (spec.startsWith("node:") || spec.startsWith("@/")) continue;
        packages.add(spec.startsWith("@") ? spec.split("/").slice(0, 2).join("/") : spec.split("/")[0]!);
      }
    }
    expect(packages.size).toBeGreaterThan(10);
    expect([...packages].filter((p) => !pkg.dependencies[p])).toEqual([]);
  });

  it("copies every directory the code imports from into the build stage", () => {
    const copied = new Set(
      steps
        .filter((s) => s.stage === "build" && s.op === "COPY" && !s.args.startsWith("--from"))
        .flatMap((s) => s.args.split(/\s+/).slice(0, -1)),
    );
    for (const dir of ["app", "components", "lib", "db"]) expect(copied.has(dir), dir).toBe(true);
    const runtimeCopies = steps
      .filter((s) => s.stage === "runtime" && s.op === "COPY")
      .flatMap((s) =>
        s.args
          .split(/\s+/)
          .filter((p) => p.startsWith("/app/"))
          .map((p) => p.slice(5)),
      );
    // What ctl runs at run time imports only lib/ and db/ (layers: lib never imports app/ or components/).
    expect(runtimeCopies).toEqual(expect.arrayContaining(["lib", "db", "tsconfig.json", "package.json", "node_modules", ".next"]));
  });

  it("has an entry point that is `ctl`, and a command it knows", () => {
    const entry = JSON.parse(steps.find((s) => s.op === "ENTRYPOINT")!.args) as string[];
    const cmd = JSON.parse(steps.find((s) => s.op === "CMD")!.args) as string[];
    expect(entry[0]).toBe("node");
    for (const p of entry.slice(1)) expect(fs.existsSync(path.join(root, p)), p).toBe(true);
    expect(entry.slice(1)).toEqual(["node_modules/tsx/dist/cli.mjs", "lib/cli/main.ts"]);
    expect(cmd).toEqual(["serve"]);
    expect(COMMANDS[cmd[0]!]).toBeDefined();
    // Its environment is valid configuration.
    const envLine = steps
      .filter((s) => s.stage === "runtime" && s.op === "ENV")
      .map((s) => s.args)
      .join(" ");
    const env = Object.fromEntries([...envLine.matchAll(/([A-Z_]+)=(\S+)/g)].map((m) => [m[1]!, m[2]!]));
    for (const name of Object.keys(env))
      expect(name in SETTINGS || ["NODE_ENV", "NEXT_TELEMETRY_DISABLED"].includes(name), name).toBe(true);
    for (const name of Object.keys(env).filter((n): n is SettingName => n in SETTINGS))
      expect(() => readSetting(env, name), name).not.toThrow();
  });

  it("starts ctl from the runtime stage's files alone, in a clean directory", async () => {
    // The runtime stage's COPY list, reproduced (node_modules linked: the same packages, not re-installed).
    for (const f of ["package.json", "package-lock.json", "tsconfig.json", "next.config.ts"])
      fs.copyFileSync(path.join(root, f), path.join(clean, f));
    for (const d of ["lib", "db"]) fs.cpSync(path.join(root, d), path.join(clean, d), { recursive: true });
    fs.symlinkSync(path.join(root, "node_modules"), path.join(clean, "node_modules"));
    const env = { ...exampleEnvironment(), DATA_DIR: path.join(clean, "data"), NODE_ENV: "production" };
    const check = await run(clean, ["config", "check"], env);
    expect(check.stdout).toMatch(/^configuration ok$/m);
    expect(check.code).toBe(0);
    // `serve` checks the configuration, loads the server (Next.js, the identity code, the store) and
    // stops only because this directory has no production build: the image's build stage makes one.
    const serve = await run(clean, ["serve"], env);
    expect(serve.code).toBe(1);
    expect(serve.stderr.trim().split("\n").at(-1)).toBe(
      "ctl: no production build found; run `npm run build` first (npm run demo does this for you)",
    );
    // With the example's placeholders, the configuration check fails, naming them (never their values).
    const placeholders = await run(clean, ["config", "check"], { ...env, ...(kube("secret.yaml").stringData as Record<string, string>) });
    expect(placeholders.code).toBe(1);
    expect(placeholders.stdout).toMatch(/^problem: SESSION_SECRET is too short/m);
    expect(placeholders.stdout).toMatch(/^problem: VAULT_KEY must be 32 bytes/m);
  });
});

describe("deploy/kubernetes", () => {
  const deployment = kube("deployment.yaml");
  const pod = deployment.spec.template;
  const container = pod.spec.containers[0];
  const config = kube("configmap.yaml").data as Record<string, string>;

  it("probes /healthz for liveness and /readyz for readiness on the port the app listens on", () => {
    expect(container.livenessProbe.httpGet.path).toBe("/healthz");
    expect(container.startupProbe.httpGet.path).toBe("/healthz");
    expect(container.readinessProbe.httpGet.path).toBe("/readyz");
    const port = container.ports.find((p: { name: string }) => p.name === container.readinessProbe.httpGet.port).containerPort;
    const env = exampleEnvironment();
    expect(readSetting(env, "PORT")).toBe(port);
    expect(readSetting(env, "HOSTNAME_BIND")).toBe("0.0.0.0");
    // The server answers exactly these paths itself (before Next.js, so no auth and no redirect).
    const serve = fs.readFileSync(path.join(root, "lib/server/serve.ts"), "utf8");
    expect(serve).toContain('path === "/healthz" || path === "/readyz"');
  });

  it("names only settings of the schema, and the example is a complete production configuration", () => {
    const names = [
      ...Object.keys(config),
      ...Object.keys(kube("secret.yaml").stringData),
      ...container.env.map((e: { name: string }) => e.name),
    ];
    expect(names.filter((n) => !(n in SETTINGS) && !(PLATFORM_VARIABLES as readonly string[]).includes(n))).toEqual([]);
    expect(container.envFrom).toEqual([{ configMapRef: { name: "elicitation-gateway" } }, { secretRef: { name: "elicitation-gateway" } }]);
    const { problems, config: parsed } = parseConfig(exampleEnvironment());
    expect(problems).toEqual([]);
    expect(parsed!.APP_ENV).toBe("production");
    // Secrets are in the Secret, never in the ConfigMap.
    for (const [name, spec] of Object.entries(SETTINGS)) if ("secret" in spec && spec.secret) expect(config[name], name).toBeUndefined();
  });

  it("gives draining instances longer than the grace period, and streams longer than an elicitation", () => {
    const env = exampleEnvironment();
    expect(pod.spec.terminationGracePeriodSeconds).toBeGreaterThan(readSetting(env, "DRAIN_GRACE_SECONDS"));
    const ingress = kube("ingress.yaml");
    const a = ingress.metadata.annotations as Record<string, string>;
    expect(a["nginx.ingress.kubernetes.io/upstream-hash-by"]).toBe("$http_mcp_session_id");
    expect(Number(a["nginx.ingress.kubernetes.io/proxy-read-timeout"])).toBeGreaterThan(readSetting(env, "ELICITATION_TIMEOUT_SECONDS"));
    expect(a["nginx.ingress.kubernetes.io/proxy-buffering"]).toBe("off");
  });

  it("wires the Service, the PodDisruptionBudget and the migration Job to the same pods and image", () => {
    const labels = pod.metadata.labels;
    expect(deployment.spec.selector.matchLabels).toEqual(labels);
    expect(kube("service.yaml").spec.selector).toEqual(labels);
    expect(kube("pdb.yaml").spec.selector.matchLabels).toEqual(labels);
    expect(kube("pdb.yaml").spec.minAvailable).toBeLessThan(deployment.spec.replicas);
    expect(kube("ingress.yaml").spec.rules[0].http.paths[0].backend.service.name).toBe(kube("service.yaml").metadata.name);
    const job = kube("migrate-job.yaml");
    const jc = job.spec.template.spec.containers[0];
    expect(jc.image).toBe(container.image);
    expect(jc.args[0]).toMatch(/lib\/cli\/main\.ts config check && .*lib\/cli\/main\.ts migrate$/);
    expect(COMMANDS.migrate).toBeDefined();
    expect(jc.envFrom).toEqual(container.envFrom);
    for (const c of [container, jc])
      expect(c.securityContext).toMatchObject({ allowPrivilegeEscalation: false, readOnlyRootFilesystem: true });
    expect(pod.spec.securityContext.runAsNonRoot).toBe(true);
  });
});
