/**
 * `npm run dump-surfaces -- <outdir> [--skip-synth]`: writes what a deployment and a caller see of order-tools into
 * <outdir>, one file per surface, the same on every run, so that two trees can be compared with `diff -r` — the
 * check that a change meant to change nothing (moving code between folders, splitting a module) changed nothing:
 *
 * - cdk/raw: the CloudFormation templates, asset manifests, cloud-assembly manifest and cdk-nag reports exactly as
 *   `npx cdk synth` writes them. cdk/normalized: the same with every asset hash named by its asset instead, and the
 *   construct metadata and Control Tower validation report without their stack traces (see `synthesize`).
 * - documents: the catalogue, the OpenAPI document under each configuration its function reads, the OAuth documents,
 *   every `npm run export-tools` format and its usage, and the model context the controller shows a model.
 * - events, bedrock: each sample event of local/event-cases.ts run through its tool's handler as `npm run invoke`
 *   does, and each Bedrock action-group event through the deployed action-group function, in their order, on fresh
 *   demo data.
 * - http, mcp: requests to the local gateway as a user sends them — every tool for each kind of caller, each
 *   refusal that can be provoked, and the MCP endpoint in each protocol revision it serves — with the status, the
 *   headers and the body of each answer.
 *
 * It reaches the code through entry points that survive a change of layout: `npx cdk synth`, `npm run export-tools`,
 * `npm run seed`, HTTP, the handler modules as the gateway loads them by path, and the local stack's own modules.
 * Where it needs a module that may move, it tries the places it may be (`importFirst`). So the one file, copied
 * into the tree before a change and the tree after it, makes two dumps that can be compared.
 *
 * What varies from run to run is replaced by a placeholder, each for the reason given where it is done
 * (`answerNormalizers`); every other byte is as received. It is a tool, not a test: `npm test` does not run it.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve as resolvePath } from "node:path";
import { parseArgs } from "node:util";
import {
  BatchWriteItemCommand,
  DeleteTableCommand,
  DynamoDBClient,
  ResourceNotFoundException,
  ScanCommand,
  type WriteRequest,
} from "@aws-sdk/client-dynamodb";
import { generateKeyPair, type JWTPayload, SignJWT } from "jose";
import { createTables, localClientConfig } from "#local/create-tables";
import { demoFixture, splitDemoFixture } from "#local/demo-shop";
import { devAudience, devIssuer, devSigningKey, principalClaims, signDevToken } from "#local/dev-auth";
import { type DynamoDbLocal, startDynamoDbLocal } from "#local/dynamodb-local";
import { bedrockEventCases, eventCases } from "#local/event-cases";
import { type Gateway, importHandler, startGateway } from "#local/gateway";
import { lambdaContext } from "#local/lambda-context";
import { divertStructuredLogs } from "#local/log-sink";
import { routes } from "#local/routes";
import { repoRoot, useTables } from "#local/stack";

const usage = `Usage: npm run dump-surfaces -- <outdir> [--skip-synth]

  <outdir>       a directory that does not exist yet (or is empty): the dump goes there
  --skip-synth   leave out the CloudFormation templates (npx cdk synth takes a minute or more)

Compare two dumps with: diff -r <before> <after>`;

// ——— what varies from run to run ———

const dayMs = 86_400_000;
const runStartedMs = Date.now();
/** The demo data is dated relative to this day (local/demo-shop.ts), and so are the dates in the answers. */
const today = new Date(runStartedMs);
const todayMs = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate());

/**
 * Every date written out in the repository's code: protocol revisions (2025-11-25), schema examples, fixed times.
 * They are the same on any day, so they are kept as they are; only a date the code computes is made relative.
 */
const literalDates = new Set<string>();

async function collectLiteralDates(): Promise<void> {
  const skipped = new Set(["node_modules", ".git", ".data", ".dev-keys", "cdk.out", "dist", "coverage"]);
  for (const top of await readdir(repoRoot, { withFileTypes: true })) {
    if (skipped.has(top.name)) continue;
    const files = top.isDirectory()
      ? (await readdir(join(repoRoot, top.name), { recursive: true })).map((f) => join(top.name, f))
      : [top.name];
    for (const file of files.filter((f) => /\.(ts|mts|mjs)$/.test(f) && !f.split("/").includes("node_modules"))) {
      // Also the date of a timestamp (2026-03-08T09:12:00Z), where \b would not end it.
      for (const match of (await readFile(join(repoRoot, file), "utf8")).matchAll(/(?<!\d)\d{4}-\d{2}-\d{2}(?!\d)/g))
        literalDates.add(match[0]);
    }
  }
}

/**
 * `<today-4d>` for a day four days ago: the demo data moves with the calendar (local/demo-shop.ts), and so do the
 * dates the tools compute from it (return windows, pickup days), so such a date is dumped as its offset from today.
 */
function relativeDay(isoDate: string): string | undefined {
  if (literalDates.has(isoDate)) return undefined;
  const ms = Date.parse(`${isoDate}T00:00:00Z`);
  if (Number.isNaN(ms)) return undefined;
  const days = Math.round((ms - todayMs) / dayMs);
  // A date more than ten years away is not the demo's (2099-06-01 in a request): kept.
  if (Math.abs(days) > 3660) return undefined;
  return days === 0 ? "<today>" : `<today${days > 0 ? "+" : ""}${days}d>`;
}

/** An instant within the run (±2 min) was minted by the server while it ran (`completedAt`, a request's time). */
const duringRun = (ms: number) => ms >= runStartedMs - 120_000 && ms <= Date.now() + 120_000;

type Normalizer = (text: string) => string;

/**
 * Every replacement made in an answer, and why. Ports: each run picks free ones. UUIDs: the server mints them
 * (request ids); numbered per file so that two places holding the same id still show it. Instants within the run:
 * the server's clock. Dates: the demo data is relative to today, so a date is dumped as its offset from today
 * (with the time of day kept, since the demo's times are fixed). X-Ray trace ids: new per invocation. API Gateway's
 * request time and epoch: the moment of the request. RATE_LIMITED's wait: how far into the window the run was.
 */
function answerNormalizers(ports: ReadonlyMap<number, string>): Normalizer[] {
  const numbered = (pattern: RegExp, name: string): Normalizer => {
    return (text) => {
      const seen = new Map<string, number>();
      return text.replace(pattern, (match) => {
        if (!seen.has(match)) seen.set(match, seen.size + 1);
        return `<${name}-${seen.get(match)}>`;
      });
    };
  };
  return [
    (text) => {
      let out = text;
      for (const [port, name] of ports) {
        out = out.replace(new RegExp(`\\b(127\\.0\\.0\\.1|localhost|\\[::1\\]):${port}\\b`, "g"), `$1:<${name}>`);
      }
      return out;
    },
    numbered(/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/g, "uuid"),
    numbered(/\b1-[0-9a-f]{8}-[0-9a-f]{24}\b/g, "xray-trace"),
    (text) =>
      text.replace(
        /\b(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?)(Z|[+-]\d{2}:\d{2})/g,
        (match, date: string, time: string, zone: string) => {
          const ms = Date.parse(match);
          if (!Number.isNaN(ms) && duringRun(ms)) return "<now>";
          const day = relativeDay(date);
          return day === undefined ? match : `${day}T${time}${zone}`;
        },
      ),
    (text) => text.replace(/\b(\d{4}-\d{2}-\d{2})\b(?!T)/g, (match, date: string) => relativeDay(date) ?? match),
    (text) => text.replace(/\b\d{2}\/[A-Z][a-z]{2}\/\d{4}:\d{2}:\d{2}:\d{2} \+0000\b/g, "<request-time>"),
    (text) => text.replace(/\b\d{13}\b/g, (match) => (duringRun(Number(match)) ? "<now-epoch-ms>" : match)),
    (text) => text.replace(/\b\d{10}\b/g, (match) => (duringRun(Number(match) * 1000) ? "<now-epoch-s>" : match)),
    (text) => (text.includes('"code":"RATE_LIMITED"') ? rateLimitedWait(text) : text),
  ];
}

/** The seconds left in the window, and the body's length, whose digits count them. */
function rateLimitedWait(text: string): string {
  return text
    .replace(/("retryAfterSeconds":\s*)\d+/g, "$1<seconds>")
    .replace(/^(< retry-after: )\d+$/gim, "$1<seconds>")
    .replace(/^(< content-length: )\d+$/gim, "$1<length>")
    .replace(/\b(Wait|Try again in) \d+ s\b/g, "$1 <seconds> s");
}

const applyAll = (normalizers: readonly Normalizer[], text: string) => normalizers.reduce((out, normalize) => normalize(out), text);

// ——— the dump directory ———

interface Counts {
  files: number;
  byArea: Map<string, number>;
}

const counts: Counts = { files: 0, byArea: new Map() };
let outdir = "";

async function writeDump(path: string, text: string | Buffer): Promise<void> {
  const file = join(outdir, path);
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, text);
  counts.files++;
  const area = path.split("/")[0] ?? path;
  counts.byArea.set(area, (counts.byArea.get(area) ?? 0) + 1);
}

const pretty = (text: string): string | undefined => {
  try {
    return `${JSON.stringify(JSON.parse(text), null, 2)}\n`;
  } catch {
    return undefined;
  }
};

/** The raw body, then (when it is JSON) the same indented, so a diff points at the member that changed. */
function bodySection(body: string): string {
  const indented = body.length > 0 ? pretty(body) : undefined;
  return indented === undefined
    ? `${body}\n`
    : `${body}\n\n--- the body above, indented for reading (the bytes above are the answer) ---\n${indented}`;
}

// ——— HTTP ———

interface Sent {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /** Declare this Content-Length and send no body: what a client streaming a huge upload looks like at first. */
  declaredLength?: number;
}

interface Received {
  status: number;
  statusMessage: string;
  rawHeaders: string[];
  body: string;
}

/** One request on its own connection, with exactly the headers given (Node adds only Connection: close). */
function send(port: number, sent: Sent): Promise<Received> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { host: `127.0.0.1:${port}`, ...sent.headers };
    if (sent.body !== undefined) headers["content-length"] = String(Buffer.byteLength(sent.body));
    if (sent.declaredLength !== undefined) headers["content-length"] = String(sent.declaredLength);
    const req = httpRequest({ host: "127.0.0.1", port, method: sent.method, path: sent.path, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => {
        resolve({
          status: res.statusCode ?? 0,
          statusMessage: res.statusMessage ?? "",
          rawHeaders: res.rawHeaders,
          body: Buffer.concat(chunks).toString("utf8"),
        });
        if (sent.declaredLength !== undefined) req.destroy();
      });
      res.on("error", reject);
    });
    req.on("error", (error: NodeJS.ErrnoException) => {
      // The gateway closes a connection whose upload it refused; the answer has already come.
      if (sent.declaredLength === undefined || error.code !== "ECONNRESET") reject(error);
    });
    if (sent.declaredLength !== undefined) req.flushHeaders();
    else req.end(sent.body);
  });
}

/** Who a token is, for the dump: tokens are signed afresh each run, so the file names the token, not its bytes. */
const tokenLabels = new Map<string, string>();
/** Whose request budget a token spends: every token of one principal (one `sub`) spends the same. */
const tokenSubs = new Map<string, string>();

function describeRequest(sent: Sent, port: number): string {
  const lines = [`> ${sent.method} ${sent.path}`, `> host: ${sent.headers?.host ?? `127.0.0.1:${port}`}`];
  for (const [name, value] of Object.entries(sent.headers ?? {})) if (name !== "host") lines.push(`> ${name}: ${value}`);
  if (sent.declaredLength !== undefined) lines.push(`> content-length: ${sent.declaredLength} (declared; no body sent)`);
  if (sent.body !== undefined) {
    lines.push(`> content-length: ${Buffer.byteLength(sent.body)}`, ">");
    const shown =
      sent.body.length > 2_000
        ? `<${Buffer.byteLength(sent.body)} bytes, sha256 ${createHash("sha256").update(sent.body).digest("hex").slice(0, 16)}…, starting ${JSON.stringify(sent.body.slice(0, 60))}>`
        : sent.body;
    lines.push(...shown.split("\n").map((line) => `> ${line}`));
  }
  return `${lines.join("\n")}\n`;
}

function describeAnswer(received: Received): string {
  const lines = [`< HTTP ${received.status} ${received.statusMessage}`];
  for (let i = 0; i < received.rawHeaders.length; i += 2) {
    const name = received.rawHeaders[i] as string;
    // The server's clock, to the second.
    const value = name.toLowerCase() === "date" ? "<date>" : (received.rawHeaders[i + 1] as string);
    lines.push(`< ${name}: ${value}`);
  }
  return `${lines.join("\n")}\n<\n${bodySection(received.body)}`;
}

function withTokenLabels(text: string): string {
  let out = text;
  for (const [token, label] of tokenLabels) out = out.replaceAll(token, `<token: ${label}>`);
  return out;
}

/** Headers to send; an undefined value leaves that header out. */
type HeaderChoice = Record<string, string | undefined>;

const present = (headers: HeaderChoice): Record<string, string> =>
  Object.fromEntries(Object.entries(headers).filter((entry): entry is [string, string] => entry[1] !== undefined));

/**
 * Numbered exchanges in one folder of the dump. The request budget (contract: 120 tool calls a minute per caller)
 * must never be what answers, or the dump would depend on where the minute boundaries fell; so the requests that
 * may reach a tool are counted per caller, and more than 120 in one phase is refused before it is sent.
 */
class Recorder {
  private n = 0;
  private readonly spent = new Map<string, number>();
  exchanges = 0;
  constructor(
    private readonly area: string,
    readonly port: number,
    private readonly normalizers: readonly Normalizer[],
    /** Whether this request may run a tool, and so spend the caller's request budget. */
    private readonly reachesTool: (sent: Sent) => boolean = () => true,
  ) {}

  async record(slug: string, sent: Sent): Promise<Received> {
    const token = /^Bearer (\S+)$/.exec(sent.headers?.authorization ?? "")?.[1];
    const sub = token !== undefined ? tokenSubs.get(token) : undefined;
    if (sub !== undefined && this.reachesTool(sent)) {
      const spent = (this.spent.get(sub) ?? 0) + 1;
      this.spent.set(sub, spent);
      if (spent > 120) throw new Error(`${this.area}: more than 120 requests for ${sub}; its request budget could start answering them.`);
    }
    const received = await send(this.port, sent);
    await this.write(slug, sent, received);
    return received;
  }

  /** Writes an exchange made elsewhere. */
  async write(slug: string, sent: Sent, received: Received): Promise<void> {
    this.n++;
    this.exchanges++;
    const text = `${describeRequest(sent, this.port)}\n${describeAnswer(received)}`;
    await writeDump(`${this.area}/${String(this.n).padStart(3, "0")}-${slug}.txt`, applyAll(this.normalizers, withTokenLabels(text)));
  }

  post(slug: string, path: string, token: string | undefined, body: unknown, headers: HeaderChoice = {}) {
    return this.record(slug, {
      method: "POST",
      path,
      headers: present({ ...(token ? { authorization: `Bearer ${token}` } : {}), "content-type": "application/json", ...headers }),
      body: typeof body === "string" ? body : JSON.stringify(body),
    });
  }

  get(slug: string, path: string, token?: string, headers: HeaderChoice = {}) {
    return this.record(slug, {
      method: "GET",
      path,
      headers: present({ ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers }),
    });
  }
}

// ——— tokens ———

interface Tokens {
  ana: string;
  anaReadOnly: string;
  anaWriteOnly: string;
  ben: string;
  chloe: string;
  chloeReadOnly: string;
  staff: string;
  staffBudget: string;
  seller: string;
  noPrincipal: string;
  twoPrincipals: string;
  staffWithoutSupportScope: string;
  expired: string;
  notYetValid: string;
  otherIssuer: string;
  otherAudience: string;
  noKeyId: string;
  unknownKey: string;
  hmac: string;
  noExpiry: string;
}

/**
 * 2000-01-01T00:00:00Z and 2100-01-01T00:00:00Z: fixed, so that a refusal that names a token's time says the same
 * each run, and more than ten years away, so that it is not taken for a date of the demo data (`relativeDay`).
 */
const fixedPast = 946_684_800;
const fixedFuture = 4_102_444_800;

async function makeTokens(): Promise<Tokens> {
  const key = await devSigningKey();
  const now = Math.floor(Date.now() / 1000);
  const ana = principalClaims({ customer: "C-1001" });
  const base = { iss: devIssuer, aud: devAudience, iat: now, nbf: now, exp: now + 3600, ...ana };
  const signedBy = (payload: JWTPayload, header: { alg: string; kid?: string }, signingKey: Parameters<SignJWT["sign"]>[0]) =>
    new SignJWT(payload).setProtectedHeader({ typ: "JWT", ...header }).sign(signingKey);
  const otherKey = await generateKeyPair("RS256");
  const tokens: Tokens = {
    ana: await signDevToken(ana),
    anaReadOnly: await signDevToken(principalClaims({ customer: "C-1001" }, "orders:read")),
    anaWriteOnly: await signDevToken(principalClaims({ customer: "C-1001" }, "orders:write")),
    ben: await signDevToken(principalClaims({ customer: "C-2002" })),
    chloe: await signDevToken(principalClaims({ customer: "C-3003" })),
    chloeReadOnly: await signDevToken(principalClaims({ customer: "C-3003" }, "orders:read")),
    staff: await signDevToken(principalClaims({ support: "S-7" })),
    staffBudget: await signDevToken(principalClaims({ support: "S-budget" })),
    seller: await signDevToken(principalClaims({ seller: "SLR-2210" })),
    noPrincipal: await signDevToken({ sub: "user-nobody", scope: "orders:read orders:write" }),
    twoPrincipals: await signDevToken({
      sub: "user-C-1001",
      customer_id: "C-1001",
      seller_id: "SLR-2210",
      scope: "orders:read orders:write",
    }),
    staffWithoutSupportScope: await signDevToken({ sub: "staff-S-7", scope: "orders:read orders:write" }),
    expired: await signDevToken({ ...ana, iat: fixedPast - 3600, nbf: fixedPast - 3600, exp: fixedPast }),
    notYetValid: await signDevToken({ ...ana, iat: fixedFuture, nbf: fixedFuture, exp: fixedFuture + 3600 }),
    otherIssuer: await signDevToken({ ...ana, iss: "https://issuer.example" }),
    otherAudience: await signDevToken({ ...ana, aud: "someone-else" }),
    noKeyId: await signedBy(base, { alg: "RS256" }, key.privateKey),
    unknownKey: await signedBy(base, { alg: "RS256", kid: "not-a-key-the-gateway-knows" }, otherKey.privateKey),
    hmac: await signedBy(base, { alg: "HS256", kid: key.kid }, new TextEncoder().encode("a shared secret of 32 bytes....!")),
    noExpiry: await signedBy({ ...base, exp: undefined }, { alg: "RS256", kid: key.kid }, key.privateKey),
  };
  for (const [label, token] of Object.entries(tokens)) {
    tokenLabels.set(token, label);
    const [, payload] = token.split(".");
    const sub = (JSON.parse(Buffer.from(payload ?? "", "base64url").toString("utf8")) as JWTPayload).sub;
    if (typeof sub === "string") tokenSubs.set(token, sub);
  }
  return tokens;
}

// ——— processes this script starts ———

/** Runs a command in the repository; resolves with its output, rejects with it when it fails. */
function run(command: string, args: string[], env: NodeJS.ProcessEnv = {}): { child: ChildProcess; done: Promise<string> } {
  // Its own process group, so that stopping it stops what it started (npx → cdk → tsx → esbuild).
  const child = spawn(command, args, { cwd: repoRoot, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"], detached: true });
  started.add(child);
  let stdout = "";
  let stderr = "";
  child.stdout?.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  const done = new Promise<string>((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", (code, signal) => {
      started.delete(child);
      if (code === 0) resolve(stdout);
      else
        reject(
          new Error(`${command} ${args.join(" ")} failed (${signal ?? `exit ${code}`}):\n${stderr.slice(-4_000)}${stdout.slice(-2_000)}`),
        );
    });
  });
  return { child, done };
}

const started = new Set<ChildProcess>();

// They run in process groups of their own, so Ctrl-C does not reach them: stop them before going. (DynamoDB Local's
// Java is stopped by its own exit hook, local/dynamodb-local.ts.)
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    stopStarted();
    process.exit(130);
  });
}

function stopStarted(): void {
  for (const child of started) {
    if (child.pid !== undefined && child.exitCode === null) {
      try {
        process.kill(-child.pid, "SIGTERM");
      } catch {
        // already gone
      }
    }
  }
}

// ——— 1. the synthesized templates ———

/**
 * `npx cdk synth` into a fresh directory. The raw files are kept as they are. The asset hashes in them are hashes
 * of the esbuild bundles, and a bundle's bytes change whenever a source file moves (its path is in the bundle's
 * comments and source map) or the tree is at another path (the source map's paths are relative to the tree), so a
 * layout change legitimately changes every hash, and with them the templates' S3 keys and the manifest's template
 * hashes. The normalized copy names each hash by its asset (`<asset:ToolGetOrder/Function/Code>`): if only the raw
 * copies differ, only bundle bytes did; if the normalized ones differ, the deployment did.
 */
async function synthesize(work: string): Promise<number> {
  // The output directory's depth is fixed (the bundles' source maps hold paths relative to it).
  const out = join(work, "cdk.out");
  await run("npx", ["cdk", "synth", "--quiet", "--output", out]).done;
  const files = (await readdir(out)).sort();
  const assets = new Map<string, string>();
  for (const file of files.filter((f) => f.endsWith(".assets.json"))) {
    const manifest = JSON.parse(await readFile(join(out, file), "utf8")) as Record<string, Record<string, { displayName?: string }>>;
    for (const group of [manifest.files ?? {}, manifest.dockerImages ?? {}]) {
      for (const [hash, asset] of Object.entries(group)) assets.set(hash, asset.displayName ?? `${file}:${hash.slice(0, 8)}`);
    }
  }
  const named = (text: string) =>
    text
      .replace(/\b[0-9a-f]{64}\b/g, (hash) => (assets.has(hash) ? `<asset:${assets.get(hash)}>` : hash))
      // An asset's publishing destination is keyed by a short hash of where it goes, its object key (the hash) too.
      .replace(/"(current_account-current_region)-[0-9a-f]{8}"/g, '"$1-<destination>"');
  // Stack traces (a construct's creation stack, an annotation's or an acknowledgement's trace) name source lines of
  // bin/, lib/ and node_modules/ by absolute path: any edit or another checkout moves them, and they are no surface.
  const traceKeys = new Set(["trace", "stackTraces", "acknowledgedStackTrace"]);
  const untraced = (node: unknown): unknown => {
    if (Array.isArray(node))
      return node.filter((entry) => (entry as { type?: unknown } | null)?.type !== "aws:cdk:creationStack").map(untraced);
    if (node === null || typeof node !== "object") return node;
    return Object.fromEntries(Object.entries(node).flatMap(([key, value]) => (traceKeys.has(key) ? [] : [[key, untraced(value)]])));
  };
  const withoutTraces = (text: string) => `${JSON.stringify(untraced(JSON.parse(text)), null, 2)}\n`;
  let written = 0;
  for (const file of files) {
    const raw = /\.(template|assets)\.json$|^manifest\.json$|NagReport\.csv$/.test(file);
    const normalizedToo = raw || /\.metadata\.json$|^validation-report\.json$/.test(file);
    if (!normalizedToo) continue;
    const text = await readFile(join(out, file), "utf8");
    if (raw) {
      await writeDump(`cdk/raw/${file}`, text);
      written++;
    }
    const stripped = /\.metadata\.json$|^validation-report\.json$/.test(file) ? withoutTraces(text) : text;
    await writeDump(`cdk/normalized/${file}`, named(stripped));
    written++;
  }
  return written;
}

// ——— 2. the documents no request makes: the export formats and the model context ———

async function exportFormats(): Promise<number> {
  const help = await run("npm", ["run", "--silent", "export-tools", "--", "--help"]).done;
  await writeDump("documents/export-tools.usage.txt", help);
  const formats = [...(help.split(/^Formats:$/m)[1] ?? "").matchAll(/^ {2}([a-z0-9][a-z0-9-]*) {2,}/gm)].map((m) => m[1] as string);
  if (formats.length === 0) throw new Error(`npm run export-tools -- --help lists no formats:\n${help}`);
  for (const format of formats) {
    const text = await run("npm", ["run", "--silent", "export-tools", "--", "--format", format]).done;
    await writeDump(`documents/export-tools.${format}.json`, text);
  }
  return formats.length + 1;
}

/** The first of these modules that loads: where a module lives before a layout change, and where it may live after. */
async function importFirst<T>(specifiers: readonly string[]): Promise<{ specifier: string; module: T } | undefined> {
  for (const specifier of specifiers) {
    try {
      return { specifier, module: (await import(specifier)) as T };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== "ERR_PACKAGE_IMPORT_NOT_DEFINED" && code !== "ERR_MODULE_NOT_FOUND") throw error;
    }
  }
  return undefined;
}

interface ModelContextModule {
  modelContext: Record<string, unknown>;
  systemPromptFor(context: { today: string; principal: "customer" | "support" | "seller" }): string;
}

/** What the controller puts before a model besides the tools: the system prompt for each caller, its markers. */
async function modelContextDocument(): Promise<void> {
  const found = await importFirst<ModelContextModule>(["#contract/model-context", "#catalog/model-context"]);
  if (!found) {
    await writeDump("documents/model-context.json", "not found at #contract/model-context or #catalog/model-context\n");
    return;
  }
  const { modelContext, systemPromptFor } = found.module;
  const prompts = Object.fromEntries(
    (["customer", "support", "seller"] as const).map((principal) => [principal, systemPromptFor({ today: "2026-01-01", principal })]),
  );
  await writeDump("documents/model-context.json", `${JSON.stringify({ ...modelContext, systemPromptFor: prompts }, null, 2)}\n`);
}

// ——— the local stack: DynamoDB Local, demo data, the gateway ———

const liveTables = { orders: "dump-orders", idempotency: "dump-idempotency" };
const templateTables = { orders: "dump-template-orders", idempotency: "dump-template-idempotency" };

/**
 * Loads the named demo orders (the part of the demo `npm start` seeds first, which the README tour, the sample
 * events and their tests use) into template tables once, through `npm run seed`; each phase then starts from a
 * copy. The demo's bulk (1,997 generated sellers and their order history) is left out: it takes the better part
 * of a minute to load on a busy machine, and the cases below are written against the named orders.
 */
async function seedTemplate(endpoint: string, work: string): Promise<void> {
  const fixture = join(work, "demo-fixture.json");
  await writeFile(fixture, JSON.stringify(splitDemoFixture(demoFixture(today)).first));
  await run("npm", ["run", "--silent", "seed", "--", fixture], {
    DYNAMODB_ENDPOINT: endpoint,
    ORDERS_TABLE: templateTables.orders,
    IDEMPOTENCY_TABLE: templateTables.idempotency,
  }).done;
}

/** Fresh demo data under the live names the handlers already use: drop the tables, make them again, copy the template. */
async function resetTables(client: DynamoDBClient): Promise<void> {
  for (const table of Object.values(liveTables)) {
    try {
      await client.send(new DeleteTableCommand({ TableName: table }));
    } catch (error) {
      if (!(error instanceof ResourceNotFoundException)) throw error;
    }
  }
  await createTables(client, liveTables);
  for (const kind of ["orders", "idempotency"] as const) {
    let start: Record<string, never> | undefined;
    do {
      const page = await client.send(new ScanCommand({ TableName: templateTables[kind], ExclusiveStartKey: start }));
      const items = page.Items ?? [];
      for (let i = 0; i < items.length; i += 25) {
        let pending: WriteRequest[] = items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } }));
        while (pending.length > 0) {
          const written = await client.send(new BatchWriteItemCommand({ RequestItems: { [liveTables[kind]]: pending } }));
          pending = written.UnprocessedItems?.[liveTables[kind]] ?? [];
        }
      }
      start = page.LastEvaluatedKey as Record<string, never> | undefined;
    } while (start);
  }
}

const entryOf = (tool: string): string => {
  const route = routes.find((r) => r.name === tool);
  if (!route) throw new Error(`The local gateway serves no route named ${tool}`);
  return route.entry;
};

// ——— 3a. the sample events, as `npm run invoke` runs them ———

async function dumpEvents(normalizers: readonly Normalizer[]): Promise<number> {
  let n = 0;
  for (const c of eventCases()) {
    const handler = await importHandler(entryOf(c.tool));
    const result = await handler(c.event, lambdaContext(c.tool));
    n++;
    const text = `event: events/${c.file} (listed as ${c.expect.status}${c.expect.code ? ` ${c.expect.code}` : ""})\n\n${JSON.stringify(result, null, 2)}\n\n${bodySection(result.body ?? "")}`;
    await writeDump(`events/${String(n).padStart(3, "0")}-${c.file.replace(/\.json$/, "")}.txt`, applyAll(normalizers, text));
  }
  return n;
}

// ——— 3b. the Bedrock action-group events, through the deployed function ———

interface LambdaApi {
  port: number;
  invocations: Array<{ functionName: string; event: unknown }>;
  server: Server;
}

/**
 * The Lambda Invoke API, locally: the action-group function as deployed invokes each tool's own function through
 * the SDK's Lambda client; here those functions are the tools' handlers, loaded as the gateway loads them.
 */
async function startLambdaApi(): Promise<LambdaApi> {
  const invocations: LambdaApi["invocations"] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", async () => {
      const functionName = decodeURIComponent(/^\/2015-03-31\/functions\/([^/]+)\/invocations/.exec(req.url ?? "")?.[1] ?? "");
      const event = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      invocations.push({ functionName, event });
      try {
        const handler = await importHandler(entryOf(functionName.replace(/^fn-/, "")));
        const result = await handler(event, lambdaContext(functionName));
        res.writeHead(200, { "content-type": "application/json", "x-amz-executed-version": "$LATEST" });
        res.end(JSON.stringify(result));
      } catch (error) {
        res.writeHead(200, { "content-type": "application/json", "x-amz-function-error": "Unhandled" });
        res.end(JSON.stringify({ errorType: "Error", errorMessage: (error as Error).message }));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  process.env.AWS_ENDPOINT_URL_LAMBDA = `http://127.0.0.1:${port}`;
  // As the CDK stack names each tool's function for the functions that invoke tools.
  for (const route of routes.filter((r) => r.access === "token"))
    process.env[`TOOL_FUNCTION_${route.name.toUpperCase()}`] = `fn-${route.name}`;
  return { port, invocations, server };
}

/** The action-group function's module: where it is before a layout change, or wherever a file of that name went. */
async function bedrockAgentEntry(): Promise<string | undefined> {
  const known = "functions/service/bedrock-agent.ts";
  if (existsSync(join(repoRoot, known))) return known;
  const found = (await readdir(join(repoRoot, "functions"), { recursive: true })).filter((f) => f.endsWith("bedrock-agent.ts"));
  return found.length === 1 ? relative(repoRoot, join(repoRoot, "functions", found[0] as string)) : undefined;
}

async function dumpBedrock(normalizers: readonly Normalizer[], lambda: LambdaApi): Promise<number> {
  const entry = await bedrockAgentEntry();
  if (!entry) {
    await writeDump("bedrock/000-not-found.txt", "No functions/**/bedrock-agent.ts: the action-group function was not found.\n");
    return 0;
  }
  const handler = await importHandler(entry);
  let n = 0;
  for (const c of bedrockEventCases()) {
    lambda.invocations.length = 0;
    const response = (await handler(c.event as never, lambdaContext("bedrock-agent", 20_000))) as unknown;
    n++;
    const calls = lambda.invocations.map((call) => `--- invoked ${call.functionName} with ---\n${JSON.stringify(call.event, null, 2)}\n`);
    const body = (response as { response?: { responseBody?: Record<string, { body?: string }> } }).response?.responseBody?.[
      "application/json"
    ]?.body;
    const text = [
      `event: events/${c.file} (listed as ${c.expect.status}${c.expect.code ? ` ${c.expect.code}` : ""})`,
      "",
      JSON.stringify(response, null, 2),
      "",
      body === undefined ? "" : bodySection(body),
      ...calls,
    ].join("\n");
    await writeDump(`bedrock/${String(n).padStart(3, "0")}-${c.file.replace(/\.json$/, "")}.txt`, applyAll(normalizers, text));
  }
  return n;
}

// ——— 3c. the documents the gateway serves ———

async function dumpServedDocuments(docs: Recorder): Promise<string[]> {
  const catalogue = await docs.get("catalogue", "/v1/tools");
  const toolNames = (JSON.parse(catalogue.body) as { tools: Array<{ name: string }> }).tools.map((t) => t.name);

  // functions/service/openapi.ts reads these two per request: the public URL, and who issues each API's tokens.
  const configurations: Array<[string, Record<string, string>]> = [
    ["local", {}],
    ["public-url", { ORDER_TOOLS_PUBLIC_URL: "https://api.example.com/orders/" }],
    [
      "oauth-with-client-credentials",
      {
        ORDER_TOOLS_AUTHORIZATION_SERVERS: JSON.stringify({
          local: {
            authorizationUrl: "https://auth.example.com/oauth2/authorize",
            tokenUrl: "https://auth.example.com/oauth2/token",
            clientCredentials: true,
          },
        }),
      },
    ],
    [
      "openid-connect",
      {
        ORDER_TOOLS_AUTHORIZATION_SERVERS: JSON.stringify({
          local: { openIdConnectUrl: "https://idp.example.com/.well-known/openid-configuration" },
        }),
      },
    ],
    [
      "another-api-only",
      { ORDER_TOOLS_AUTHORIZATION_SERVERS: JSON.stringify({ other: { openIdConnectUrl: "https://idp.example.com/x" } }) },
    ],
    ["malformed-configuration", { ORDER_TOOLS_AUTHORIZATION_SERVERS: '{"local": {"tokenUrl": "http://not-https"}}' }],
    ["malformed-public-url", { ORDER_TOOLS_PUBLIC_URL: "api.example.com?x=1" }],
  ];
  for (const [name, env] of configurations) {
    Object.assign(process.env, env);
    try {
      await docs.get(`openapi.${name}`, "/v1/openapi.json");
    } finally {
      for (const key of Object.keys(env)) delete process.env[key];
    }
  }
  await docs.get("oauth-protected-resource.mcp", "/.well-known/oauth-protected-resource/v1/mcp");
  await docs.get("oauth-protected-resource.root", "/.well-known/oauth-protected-resource");
  await docs.get("oauth-authorization-server", "/.well-known/oauth-authorization-server");
  await docs.get("openid-configuration", "/.well-known/openid-configuration");
  return toolNames;
}

// ——— 3d. every tool over plain HTTP ———

async function dumpHttp(http: Recorder, t: Tokens, toolNames: readonly string[]): Promise<void> {
  const tool = (name: string) => `/v1/tools/${name}`;
  const daysAgo = (days: number) => new Date(todayMs - days * dayMs).toISOString().slice(0, 10);

  // What any tool answers, whichever it is: the route, the token, the body's shape and size. Chloé (C-3003) asks,
  // so that Ana's request budget is left for her own cases below.
  for (const name of toolNames) {
    await http.post(`${name}.no-token`, tool(name), undefined, {});
    await http.post(`${name}.empty-arguments`, tool(name), t.chloe, {});
    await http.post(`${name}.not-json`, tool(name), t.chloe, "orderId=SU-88421");
    await http.post(`${name}.array-body`, tool(name), t.chloe, "[]");
    await http.post(`${name}.unknown-field`, tool(name), t.chloe, { orderId: "SU-88421", operationId: "op-dump-unknown-field", note: "x" });
    await http.post(`${name}.read-only-token`, tool(name), t.chloeReadOnly, {});
    await http.post(`${name}.over-16-KiB`, tool(name), t.chloe, JSON.stringify({ orderId: "SU-88421", padding: "x".repeat(16_384) }));
    await http.get(`${name}.get`, tool(name), t.chloe);
  }

  // The gateway's own answers.
  await http.get("gateway.no-such-route", "/v1/nothing-here", t.ana);
  await http.get("gateway.tools-route-wrong-method", "/v1/tools/cancel_order", t.ana);
  await http.post("gateway.catalogue-wrong-method", "/v1/tools", t.ana, {});
  await http.record("gateway.delete-on-tool", {
    method: "DELETE",
    path: "/v1/tools/get_order",
    headers: { authorization: `Bearer ${t.ana}` },
  });
  await http.record("gateway.declared-20-MB", {
    method: "POST",
    path: "/v1/tools/get_order",
    headers: { authorization: `Bearer ${t.ana}`, "content-type": "application/json" },
    declaredLength: 20_000_000,
  });
  await http.record("gateway.query-string", {
    method: "POST",
    path: "/v1/tools/get_order?orderId=SU-10234&x=1&x=2",
    headers: { authorization: `Bearer ${t.ana}`, "content-type": "application/json" },
    body: JSON.stringify({ orderId: "SU-88421" }),
  });

  // Tokens the gateway refuses (401), and principals a tool refuses (403).
  const getOrder = { orderId: "SU-88421" };
  await http.post("token.basic-scheme", tool("get_order"), undefined, getOrder, { authorization: "Basic YW5hOnNlY3JldA==" });
  await http.post("token.bearer-without-token", tool("get_order"), undefined, getOrder, { authorization: "Bearer" });
  await http.post("token.not-a-jwt", tool("get_order"), undefined, getOrder, { authorization: "Bearer not-a-jwt" });
  for (const name of ["expired", "notYetValid", "otherIssuer", "otherAudience", "noKeyId", "unknownKey", "hmac", "noExpiry"] as const) {
    await http.post(`token.${name}`, tool("get_order"), t[name], getOrder);
  }
  await http.post("principal.none", tool("get_order"), t.noPrincipal, getOrder);
  await http.post("principal.two", tool("get_order"), t.twoPrincipals, getOrder);
  await http.post("principal.staff-without-support-scope", tool("get_order"), t.staffWithoutSupportScope, getOrder);
  await http.post("principal.read-only-on-a-change", tool("cancel_order"), t.anaReadOnly, {
    operationId: "op-dump-readonly-1",
    orderId: "SU-10452",
  });
  await http.post("principal.write-only-on-a-read", tool("get_order"), t.anaWriteOnly, getOrder);

  const cancel = { operationId: "op-dump-cancel-1", orderId: "SU-10234", reason: "Ordered twice" };
  // Then each principal's requests, in order, one a row: a tool's name is a POST of the body to that tool, a path a GET.
  // biome-ignore format: a table reads best one request a line
  const requests: Array<[slug: string, toolOrPath: string, token: string, body?: unknown]> = [
    // A customer (Ana, C-1001): reads.
    ["customer.search-by-fragment", "search_orders", t.ana, { orderId: "884" }],
    ["customer.search-all", "search_orders", t.ana, {}],
    ["customer.search-limit-3", "search_orders", t.ana, { limit: 3 }],
    ["customer.search-placed-last-30-days", "search_orders", t.ana, { dateRange: { dateField: "placed", from: daysAgo(30), to: daysAgo(0) } }],
    ["customer.search-delivered-range", "search_orders", t.ana, { dateRange: { dateField: "delivered", from: daysAgo(60), to: daysAgo(1) } }],
    ["customer.search-range-too-long", "search_orders", t.ana, { dateRange: { dateField: "placed", from: daysAgo(200), to: daysAgo(0) } }],
    ["customer.search-another-email", "search_orders", t.ana, { email: "ben@example.com" }],
    ["customer.search-two-digit-fragment", "search_orders", t.ana, { orderId: "88" }],
    ["customer.get-order", "get_order", t.ana, { orderId: "SU-88421" }],
    ["customer.get-order-window-closed", "get_order", t.ana, { orderId: "SU-61207" }],
    ["customer.get-order-suspended-seller", "get_order", t.ana, { orderId: "SU-77310" }],
    ["customer.get-order-placed", "get_order", t.ana, { orderId: "SU-10234" }],
    ["customer.get-order-of-another-customer", "get_order", t.ana, { orderId: "SU-20417" }],
    ["customer.get-order-that-does-not-exist", "get_order", t.ana, { orderId: "SU-99999" }],
    ["customer.get-order-malformed-id", "get_order", t.ana, { orderId: "SU-9941" }],

    // Changes, and what the operation ledger says of them.
    ["customer.cancel", "cancel_order", t.ana, cancel],
    ["customer.cancel-replayed", "cancel_order", t.ana, cancel],
    ["customer.cancel-same-operation-other-reason", "cancel_order", t.ana, { ...cancel, reason: "Changed my mind" }],
    ["customer.same-operation-another-tool", "add_delivery_note", t.ana, { operationId: cancel.operationId, orderId: "SU-10234", expectedVersion: 2, deliveryNote: "Porch" }],
    ["customer.cancel-already-cancelled", "cancel_order", t.ana, { operationId: "op-dump-cancel-2", orderId: "SU-10608" }],
    ["customer.cancel-shipped", "cancel_order", t.ana, { operationId: "op-dump-cancel-3", orderId: "SU-10519" }],
    ["customer.cancel-stale-version", "cancel_order", t.ana, { operationId: "op-dump-cancel-4", orderId: "SU-10452", expectedVersion: 1 }],
    ["customer.cancel-another-customers-order", "cancel_order", t.ana, { operationId: "op-dump-cancel-5", orderId: "SU-20417" }],
    ["customer.cancel-reason-two-lines", "cancel_order", t.ana, { operationId: "op-dump-cancel-6", orderId: "SU-10452", reason: "one\ntwo" }],
    ["customer.note", "add_delivery_note", t.ana, { operationId: "op-dump-note-1", orderId: "SU-10387", expectedVersion: 2, deliveryNote: "Leave it in the porch" }],
    ["customer.note-stale-version", "add_delivery_note", t.ana, { operationId: "op-dump-note-2", orderId: "SU-10387", expectedVersion: 2, deliveryNote: "Ring twice" }],
    ["customer.note-on-shipped", "add_delivery_note", t.ana, { operationId: "op-dump-note-3", orderId: "SU-10519", expectedVersion: 4, deliveryNote: "Ring twice" }],
    ["customer.note-bidi-override", "add_delivery_note", t.ana, { operationId: "op-dump-note-4", orderId: "SU-10387", expectedVersion: 3, deliveryNote: "Leave at door \u202Eroop\u202C" }],
    ["customer.return", "start_return", t.ana, { operationId: "op-dump-return-1", orderId: "SU-88421", itemIds: ["ITM-1"], reason: "damaged" }],
    ["customer.return-window-closed", "start_return", t.ana, { operationId: "op-dump-return-2", orderId: "SU-61207", itemIds: ["ITM-1"], reason: "other" }],
    ["customer.return-no-pickup-slot", "start_return", t.ana, { operationId: "op-dump-return-3", orderId: "SU-77310", itemIds: ["ITM-1"], reason: "damaged", pickupDate: "2099-06-01" }],
    ["customer.return-not-delivered", "start_return", t.ana, { operationId: "op-dump-return-4", orderId: "SU-10452", itemIds: ["ITM-1"], reason: "no_longer_needed" }],
    ["customer.return-unknown-item", "start_return", t.ana, { operationId: "op-dump-return-5", orderId: "SU-77310", itemIds: ["ITM-9"], reason: "damaged" }],
    // Before the return below takes SU-77310's items back: the suspended seller is what refuses.
    ["customer.replacement-seller-suspended", "offer_replacement", t.ana, { operationId: "op-dump-replace-2", orderId: "SU-77310", expectedVersion: 2, itemId: "ITM-1", reason: "damaged" }],
    ["customer.return-both-items-pickup-date", "start_return", t.ana, { operationId: "op-dump-return-6", orderId: "SU-77310", itemIds: ["ITM-1", "ITM-2"], reason: "wrong_item", pickupDate: daysAgo(-3) }],
    ["customer.replacement", "offer_replacement", t.ana, { operationId: "op-dump-replace-1", orderId: "SU-70144", expectedVersion: 3, itemId: "ITM-1", reason: "damaged" }],
    ["customer.replacement-out-of-stock", "offer_replacement", t.ana, { operationId: "op-dump-replace-3", orderId: "SU-83015", expectedVersion: 2, itemId: "ITM-1", reason: "missing" }],
    ["customer.replacement-not-delivered", "offer_replacement", t.ana, { operationId: "op-dump-replace-4", orderId: "SU-10452", expectedVersion: 3, itemId: "ITM-1", reason: "missing" }],
    ["customer.status-completed", "get_operation_status", t.ana, { operationId: "op-dump-cancel-1" }],
    ["customer.status-completed-by-path", "/v1/operations/op-dump-cancel-1", t.ana],
    ["customer.status-of-a-refusal", "get_operation_status", t.ana, { operationId: "op-dump-cancel-3" }],
    ["customer.status-of-a-return", "get_operation_status", t.ana, { operationId: "op-dump-return-1" }],
    ["customer.status-never-sent", "get_operation_status", t.ana, { operationId: "op-dump-lost-1" }],
    ["customer.status-by-path-short-id", "/v1/operations/op-1", t.ana],
    ["customer.status-by-path-encoded", "/v1/operations/op-dump%3Acancel", t.ana],
    ["customer.status-of-another-callers-operation", "get_operation_status", t.ben, { operationId: "op-dump-cancel-1" }],
    ["customer.get-order-after-changes", "get_order", t.ana, { orderId: "SU-88421" }],
    ["customer.get-cancelled-order", "get_order", t.ana, { orderId: "SU-10234" }],

    // Another customer (Ben, C-2002).
    ["customer-ben.search", "search_orders", t.ben, {}],
    ["customer-ben.get-order", "get_order", t.ben, { orderId: "SU-20417" }],
    ["customer-ben.get-anas-order", "get_order", t.ben, { orderId: "SU-88421" }],

    // Support staff (S-7): any customer's orders, by e-mail too.
    ["support.search-by-email", "search_orders", t.staff, { email: "ben@example.com" }],
    ["support.search-by-email-upper-case", "search_orders", t.staff, { email: "ANA@EXAMPLE.COM", limit: 2 }],
    ["support.search-unknown-email", "search_orders", t.staff, { email: "nobody@example.com" }],
    ["support.get-order", "get_order", t.staff, { orderId: "SU-20417" }],
    ["support.cancel", "cancel_order", t.staff, { operationId: "op-dump-staff-1", orderId: "SU-20417" }],
    ["support.note", "add_delivery_note", t.staff, { operationId: "op-dump-staff-2", orderId: "SU-10452", expectedVersion: 3, deliveryNote: "Call on arrival" }],
    ["support.status", "get_operation_status", t.staff, { operationId: "op-dump-staff-1" }],
    ["support.status-of-a-customers-operation", "get_operation_status", t.staff, { operationId: "op-dump-cancel-1" }],

    // A marketplace seller (Ashcombe Furniture, SLR-2210): the orders it sold, returns and replacements only.
    ["seller.search-placed-last-30-days", "search_orders", t.seller, { dateRange: { dateField: "placed", from: daysAgo(30), to: daysAgo(0) } }],
    ["seller.search-by-fragment", "search_orders", t.seller, { orderId: "401" }],
    ["seller.search-by-email", "search_orders", t.seller, { email: "ana@example.com" }],
    ["seller.search-without-criteria", "search_orders", t.seller, {}],
    ["seller.get-order", "get_order", t.seller, { orderId: "SU-83015" }],
    ["seller.get-order-of-another-seller", "get_order", t.seller, { orderId: "SU-10452" }],
    ["seller.return", "start_return", t.seller, { operationId: "op-dump-seller-1", orderId: "SU-83015", itemIds: ["ITM-1"], reason: "damaged" }],
    ["seller.replacement-already-returned", "offer_replacement", t.seller, { operationId: "op-dump-seller-2", orderId: "SU-88421", expectedVersion: 4, itemId: "ITM-1", reason: "damaged" }],
    ["seller.cancel", "cancel_order", t.seller, { operationId: "op-dump-seller-3", orderId: "SU-40101" }],
    ["seller.note", "add_delivery_note", t.seller, { operationId: "op-dump-seller-4", orderId: "SU-40101", expectedVersion: 2, deliveryNote: "Back door" }],
    ["seller.status", "get_operation_status", t.seller, { operationId: "op-dump-seller-1" }],
  ];
  for (const [slug, target, token, body] of requests) {
    if (target.startsWith("/")) await http.get(slug, target, token);
    else await http.post(slug, tool(target), token, body);
  }

  // The request budget: one caller sends until refused. Only the refusal is dumped, not how many went before it,
  // which depends on where the minute boundary fell.
  const overBudget: Sent = {
    method: "POST",
    path: tool("get_order"),
    headers: { authorization: `Bearer ${t.staffBudget}`, "content-type": "application/json" },
    body: JSON.stringify({ orderId: "SU-88421" }),
  };
  for (let i = 0; ; i++) {
    if (i === 400) throw new Error("400 requests in a row were never refused by the request budget.");
    const answer = await send(http.port, overBudget);
    if (answer.status !== 429) continue;
    await http.write("budget.over-the-request-budget", overBudget, answer);
    break;
  }
}

// ——— 3e. MCP over the same gateway ———

const meta = {
  protocolVersion: "io.modelcontextprotocol/protocolVersion",
  clientCapabilities: "io.modelcontextprotocol/clientCapabilities",
  clientInfo: "io.modelcontextprotocol/clientInfo",
};

const mcpHeaders = { accept: "application/json, text/event-stream", "content-type": "application/json" };

async function dumpMcp(mcp: Recorder, t: Tokens): Promise<number> {
  const path = "/v1/mcp";
  const rpc = (id: number | null, method: string, params?: unknown) =>
    JSON.stringify({ jsonrpc: "2.0", ...(id === null ? {} : { id }), method, ...(params === undefined ? {} : { params }) });
  /** A 2025 request; `null` sends no token (an undefined one would be Ana's). */
  const legacy = (slug: string, body: string, version?: string, token: string | null = t.ana, headers: HeaderChoice = {}) =>
    mcp.post(slug, path, token ?? undefined, body, { ...mcpHeaders, ...(version ? { "mcp-protocol-version": version } : {}), ...headers });
  const modernVersion = "2026-07-28";
  const envelope = (extra: Record<string, unknown> = {}) => ({
    _meta: {
      [meta.protocolVersion]: modernVersion,
      [meta.clientCapabilities]: {},
      [meta.clientInfo]: { name: "dump-surfaces", version: "1.0.0" },
    },
    ...extra,
  });
  const modern = (slug: string, method: string, params: Record<string, unknown>, headers: HeaderChoice = {}, token = t.ana) =>
    mcp.post(slug, path, token, rpc(1, method, params), {
      ...mcpHeaders,
      "mcp-protocol-version": modernVersion,
      "mcp-method": method,
      ...(method === "tools/call" && typeof params.name === "string" ? { "mcp-name": params.name } : {}),
      ...headers,
    });

  // The revisions the server says it serves: each gets the handshake, the list and a call.
  const discovery = await modern("modern.server-discover", "server/discover", envelope());
  const supported = (JSON.parse(discovery.body) as { result?: { supportedVersions?: string[] } }).result?.supportedVersions ?? [];
  if (supported.length === 0) throw new Error(`server/discover named no protocol versions: ${discovery.body}`);
  for (const version of supported.filter((v) => v !== modernVersion)) {
    await legacy(
      `${version}.initialize`,
      rpc(1, "initialize", { protocolVersion: version, capabilities: {}, clientInfo: { name: "dump", version: "1" } }),
    );
    await legacy(`${version}.notifications-initialized`, rpc(null, "notifications/initialized"), version);
    await legacy(`${version}.ping`, rpc(2, "ping"), version);
    await legacy(`${version}.tools-list`, rpc(3, "tools/list"), version);
    await legacy(
      `${version}.tools-call-get-order`,
      rpc(4, "tools/call", { name: "get_order", arguments: { orderId: "SU-88421" } }),
      version,
    );
    await legacy(
      `${version}.tools-call-not-found`,
      rpc(5, "tools/call", { name: "get_order", arguments: { orderId: "SU-20417" } }),
      version,
    );
  }
  await legacy("legacy.initialize-unknown-older-version", rpc(1, "initialize", { protocolVersion: "2024-11-05", capabilities: {} }));
  await legacy("legacy.initialize-without-version", rpc(1, "initialize", { capabilities: {} }));
  await legacy(
    "legacy.initialize-string-id",
    JSON.stringify({ jsonrpc: "2.0", id: "init-1", method: "initialize", params: { protocolVersion: "2025-11-25" } }),
  );
  await legacy("legacy.no-version-header-tools-list", rpc(1, "tools/list"));
  await legacy("legacy.unsupported-version-header", rpc(1, "tools/list"), "2099-01-01");
  await legacy("legacy.unknown-method", rpc(1, "resources/list"), "2025-11-25");
  await legacy("legacy.version-header-with-spaces", rpc(1, "ping"), " 2025-06-18 ");

  const latest = "2025-11-25";
  const call = (id: number, name: string, args: unknown) => rpc(id, "tools/call", { name, arguments: args });
  const cancel = { operationId: "op-dump-mcp-cancel-1", orderId: "SU-10234", reason: "Ordered twice" };
  await legacy("call.cancel", call(1, "cancel_order", cancel), latest);
  await legacy("call.cancel-replayed", call(2, "cancel_order", cancel), latest);
  await legacy("call.cancel-same-operation-other-reason", call(3, "cancel_order", { ...cancel, reason: "Other" }), latest);
  await legacy("call.cancel-shipped", call(4, "cancel_order", { operationId: "op-dump-mcp-cancel-2", orderId: "SU-10519" }), latest);
  await legacy(
    "call.note-stale-version",
    call(5, "add_delivery_note", {
      operationId: "op-dump-mcp-note-1",
      orderId: "SU-10387",
      expectedVersion: 1,
      deliveryNote: "Porch",
    }),
    latest,
  );
  await legacy(
    "call.return",
    call(6, "start_return", { operationId: "op-dump-mcp-return-1", orderId: "SU-88421", itemIds: ["ITM-1"], reason: "damaged" }),
    latest,
  );
  await legacy("call.status", call(7, "get_operation_status", { operationId: "op-dump-mcp-cancel-1" }), latest);
  await legacy("call.search", call(8, "search_orders", { orderId: "884" }), latest);
  await legacy("call.invalid-arguments", call(9, "get_order", { orderId: "SU-1" }), latest);
  await legacy("call.arguments-not-an-object", call(10, "get_order", "SU-88421"), latest);
  await legacy("call.without-arguments", rpc(11, "tools/call", { name: "get_operation_status" }), latest);
  await legacy("call.unknown-tool", call(12, "refund_order", { orderId: "SU-88421" }), latest);
  await legacy("call.without-name", rpc(13, "tools/call", { arguments: {} }), latest);
  await legacy(
    "call.read-only-token-on-a-change",
    call(14, "cancel_order", { operationId: "op-dump-mcp-ro-1", orderId: "SU-10452" }),
    latest,
    t.anaReadOnly,
  );
  await legacy(
    "call.seller-cancel",
    call(15, "cancel_order", { operationId: "op-dump-mcp-seller-1", orderId: "SU-40101" }),
    latest,
    t.seller,
  );
  await legacy("call.seller-get-order", call(16, "get_order", { orderId: "SU-83015" }), latest, t.seller);
  await legacy("call.support-search", call(17, "search_orders", { email: "ben@example.com" }), latest, t.staff);
  await legacy("call.no-principal", call(18, "get_order", { orderId: "SU-88421" }), latest, t.noPrincipal);
  let deep: unknown = "SU-88421";
  for (let i = 0; i < 40; i++) deep = { orderId: deep };
  await legacy("call.deeply-nested-arguments", call(19, "get_order", deep), latest);

  await modern("modern.tools-list", "tools/list", envelope());
  await modern("modern.tools-call", "tools/call", envelope({ name: "get_order", arguments: { orderId: "SU-88421" } }));
  await modern("modern.tools-call-refused", "tools/call", envelope({ name: "get_order", arguments: { orderId: "SU-99999" } }));
  await modern("modern.tools-call-unknown-tool", "tools/call", envelope({ name: "refund_order", arguments: {} }));
  await modern("modern.name-header-mismatch", "tools/call", envelope({ name: "get_order", arguments: { orderId: "SU-88421" } }), {
    "mcp-name": "search_orders",
  });
  await modern("modern.name-header-base64", "tools/call", envelope({ name: "get_order", arguments: { orderId: "SU-88421" } }), {
    "mcp-name": `=?base64?${Buffer.from("get_order").toString("base64")}?=`,
  });
  await modern("modern.name-header-bad-base64", "tools/call", envelope({ name: "get_order", arguments: { orderId: "SU-88421" } }), {
    "mcp-name": "=?base64?not base64?=",
  });
  await mcp.post(
    "modern.name-header-missing",
    path,
    t.ana,
    rpc(1, "tools/call", envelope({ name: "get_order", arguments: { orderId: "SU-88421" } })),
    {
      ...mcpHeaders,
      "mcp-protocol-version": modernVersion,
      "mcp-method": "tools/call",
    },
  );
  await mcp.post("modern.method-header-missing", path, t.ana, rpc(1, "tools/list", envelope()), {
    ...mcpHeaders,
    "mcp-protocol-version": modernVersion,
  });
  await mcp.post("modern.version-header-missing", path, t.ana, rpc(1, "tools/list", envelope()), {
    ...mcpHeaders,
    "mcp-method": "tools/list",
  });
  await modern("modern.version-header-differs", "tools/list", envelope(), { "mcp-protocol-version": "2025-11-25" });
  await modern("modern.method-header-differs", "tools/list", envelope(), { "mcp-method": "server/discover" });
  await modern("modern.envelope-without-capabilities", "tools/list", { _meta: { [meta.protocolVersion]: modernVersion } });
  await modern("modern.envelope-bad-client-info", "tools/list", envelope({ _meta: { ...envelope()._meta, [meta.clientInfo]: "dump" } }));
  await modern("modern.header-without-envelope", "tools/list", {});
  await modern("modern.unknown-method", "resources/list", envelope());
  await modern("modern.removed-method-ping", "ping", envelope());
  await modern("modern.removed-method-initialize", "initialize", envelope());
  await mcp.post("modern.initialize-with-modern-header", path, t.ana, rpc(1, "initialize", { protocolVersion: "2025-11-25" }), {
    ...mcpHeaders,
    "mcp-protocol-version": modernVersion,
  });
  await modern(
    "modern.unsupported-envelope-version",
    "tools/list",
    {
      _meta: { [meta.protocolVersion]: "2030-01-01", [meta.clientCapabilities]: {} },
    },
    { "mcp-protocol-version": "2030-01-01" },
  );
  await mcp.post("modern.notification", path, t.ana, rpc(null, "notifications/cancelled", envelope({ requestId: 1 })), {
    ...mcpHeaders,
    "mcp-protocol-version": modernVersion,
    "mcp-method": "notifications/cancelled",
  });

  // Messages that are not requests, and bodies that are not messages.
  await legacy("message.notification-cancelled", rpc(null, "notifications/cancelled", { requestId: 1 }), latest);
  await legacy("message.response", JSON.stringify({ jsonrpc: "2.0", id: 1, result: {} }), latest);
  await legacy("message.parse-error", '{"jsonrpc": "2.0", "id": 1, "method": "tools/list"', latest);
  await legacy("message.batch", `[${rpc(1, "tools/list")}]`, latest);
  await legacy("message.wrong-jsonrpc-version", JSON.stringify({ jsonrpc: "1.0", id: 1, method: "tools/list" }), latest);
  await legacy("message.params-array", JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: [] }), latest);
  await legacy("message.no-method", JSON.stringify({ jsonrpc: "2.0", id: 1 }), latest);
  await legacy("message.object-id", JSON.stringify({ jsonrpc: "2.0", id: { x: 1 }, method: "ping" }), latest);
  await legacy("message.empty-body", "", latest);
  await legacy(
    "message.too-large",
    rpc(1, "tools/call", { name: "get_order", arguments: { orderId: "SU-88421", padding: "x".repeat(16_384) } }),
    latest,
  );

  // The transport's checks, alone and together (which one answers first is part of the surface).
  const list = rpc(1, "tools/list");
  await legacy("transport.accept-event-stream-only", list, latest, t.ana, { accept: "text/event-stream" });
  await legacy("transport.accept-json-only", list, latest, t.ana, { accept: "application/json" });
  await legacy("transport.accept-html", list, latest, t.ana, { accept: "text/html" });
  await legacy("transport.accept-json-refused-by-q0", list, latest, t.ana, { accept: "application/json;q=0, text/event-stream" });
  await mcp.post("transport.no-accept", path, t.ana, list, { "content-type": "application/json", "mcp-protocol-version": latest });
  await legacy("transport.content-type-text", list, latest, t.ana, { "content-type": "text/plain" });
  await legacy("transport.no-content-type", list, latest, t.ana, { "content-type": undefined });
  await legacy("transport.content-type-with-charset", list, latest, t.ana, { "content-type": "application/json; charset=utf-8" });
  await legacy("transport.origin-foreign", list, latest, t.ana, { origin: "https://evil.example" });
  await legacy("transport.origin-loopback", list, latest, t.ana, { origin: "http://localhost:5173" });
  await legacy("transport.origin-listed", list, latest, t.ana, { origin: listedOrigin });
  await legacy("transport.host-foreign", list, latest, t.ana, { host: "evil.example" });
  await legacy("transport.host-localhost", list, latest, t.ana, { host: "localhost" });
  await legacy("auth.no-token", list, latest, null);
  await legacy("auth.basic-scheme", list, latest, null, { authorization: "Basic YW5hOnNlY3JldA==" });
  await legacy("auth.not-a-jwt", list, latest, null, { authorization: "Bearer not-a-jwt" });
  await legacy("auth.expired", list, latest, t.expired);
  await legacy("auth.other-audience", list, latest, t.otherAudience);
  await legacy("auth.without-read-scope", list, latest, t.anaWriteOnly);
  await mcp.get("method.get", path, t.ana, { accept: "text/event-stream" });
  await mcp.record("method.delete", { method: "DELETE", path, headers: { authorization: `Bearer ${t.ana}` } });
  await mcp.record("method.put", { method: "PUT", path, headers: { authorization: `Bearer ${t.ana}`, ...mcpHeaders }, body: list });
  await legacy("order.host-origin-no-token", list, latest, null, { host: "evil.example", origin: "https://evil.example" });
  await legacy("order.origin-no-token", list, latest, null, { origin: "https://evil.example" });
  await legacy("order.no-token-parse-error", "{", latest, null);
  await legacy("order.no-token-too-large", "x".repeat(20_000), latest, null);
  await legacy("order.too-large-parse-error", "{".repeat(20_000), latest);
  await legacy("order.parse-error-bad-accept", "{", latest, t.ana, { accept: "text/html" });
  await legacy("order.bad-accept-bad-content-type", list, latest, t.ana, { accept: "text/html", "content-type": "text/plain" });
  await legacy("order.bad-content-type-invalid-message", "[]", latest, t.ana, { "content-type": "text/plain" });
  await legacy("order.bad-version-header-notification", rpc(null, "notifications/initialized"), "2099-01-01");
  await mcp.record("order.get-foreign-host-no-token", { method: "GET", path, headers: { host: "evil.example" } });
  return supported.length;
}

/** An origin the local MCP endpoint is told to allow (ORDER_TOOLS_MCP_ALLOWED_ORIGINS, read when it loads). */
const listedOrigin = "https://allowed.example";

// ——— main ———

async function main(): Promise<void> {
  const { values, positionals } = (() => {
    try {
      return parseArgs({ options: { "skip-synth": { type: "boolean" }, help: { type: "boolean", short: "h" } }, allowPositionals: true });
    } catch (error) {
      console.error(`${(error as Error).message}\n\n${usage}`);
      process.exit(2);
    }
  })();
  if (values.help) {
    console.log(usage);
    return;
  }
  if (positionals.length !== 1) {
    console.error(
      `${positionals.length === 0 ? "Name the directory to write the dump to." : `One directory, not ${positionals.join(" ")}.`}\n\n${usage}`,
    );
    process.exit(2);
  }
  outdir = resolvePath(process.env.INIT_CWD ?? process.cwd(), positionals[0] as string);
  if (existsSync(outdir) && (await readdir(outdir)).length > 0) {
    console.error(`${outdir} is not empty: give a new directory, so that nothing of an earlier dump is left in this one.`);
    process.exit(2);
  }
  await mkdir(outdir, { recursive: true });
  await collectLiteralDates();
  const work = await mkdtemp(join(tmpdir(), "dump-surfaces-"));
  const say = (line: string) => console.log(`[${((Date.now() - runStartedMs) / 1000).toFixed(1)} s] ${line}`);

  // Only what this script sets below may shape an answer: no caps, URLs or origins from the caller's shell.
  for (const name of Object.keys(process.env))
    if (name.startsWith("ORDER_TOOLS_") || name.startsWith("TOOL_FUNCTION_")) delete process.env[name];
  process.env.ORDER_TOOLS_MCP_ALLOWED_ORIGINS = listedOrigin;
  process.env.POWERTOOLS_SERVICE_NAME = "order-tools-local";
  // The handlers' JSON log and metric lines would bury the progress lines.
  divertStructuredLogs(join(work, "handlers.jsonl"));

  // The two that run other commands go on while the local stack is driven; each writes only files of its own.
  const synth = values["skip-synth"] ? Promise.resolve(0) : synthesize(work);
  synth.catch(() => undefined);
  const exported = exportFormats();
  exported.catch(() => undefined);
  let dynamoDb: DynamoDbLocal | undefined;
  let gateway: Gateway | undefined;
  let lambda: LambdaApi | undefined;
  let client: DynamoDBClient | undefined;
  const figures: string[] = [];
  try {
    dynamoDb = await startDynamoDbLocal();
    say(`DynamoDB Local on a free port; seeding the demo orders`);
    await seedTemplate(dynamoDb.endpoint, work);
    client = new DynamoDBClient(localClientConfig(dynamoDb.endpoint));
    useTables(dynamoDb.endpoint, liveTables);
    lambda = await startLambdaApi();
    gateway = await startGateway({ port: 0 });
    const ports = new Map<number, string>([
      [gateway.port, "gateway-port"],
      [lambda.port, "lambda-api-port"],
      [dynamoDb.port, "dynamodb-port"],
    ]);
    const normalizers = answerNormalizers(ports);
    // Documents carry no data, only the port: their dates are examples written in the code, kept as they are.
    const documentNormalizers = [normalizers[0] as Normalizer];

    await resetTables(client);
    figures.push(`${await dumpEvents(normalizers)} sample events`);
    say(figures.at(-1) as string);
    await resetTables(client);
    figures.push(`${await dumpBedrock(normalizers, lambda)} Bedrock action-group events`);
    say(figures.at(-1) as string);

    await resetTables(client);
    const tokens = await makeTokens();
    const docs = new Recorder("documents", gateway.port, documentNormalizers);
    const toolNames = await dumpServedDocuments(docs);
    const http = new Recorder("http", gateway.port, normalizers);
    await dumpHttp(http, tokens, toolNames);
    figures.push(`${docs.exchanges} served documents, ${http.exchanges} HTTP answers`);
    say(figures.at(-1) as string);

    await resetTables(client);
    // Only tools/call runs a tool, and so spends the caller's request budget.
    const mcp = new Recorder("mcp", gateway.port, normalizers, (sent) => sent.body?.includes('"tools/call"') === true);
    const revisions = await dumpMcp(mcp, tokens);
    figures.push(`${mcp.exchanges} MCP answers (${revisions} protocol revisions)`);
    say(figures.at(-1) as string);

    await modelContextDocument();
    figures.push(`${await exported} export-tools files`);
    say(figures.at(-1) as string);
    const synthesized = await synth;
    if (!values["skip-synth"]) figures.push(`${synthesized} CloudFormation assembly files`);
    say(`done: ${counts.files} files in ${outdir}`);
    for (const [area, n] of [...counts.byArea].sort()) console.log(`  ${area}: ${n}`);
    console.log(`  (${figures.join("; ")})`);
  } finally {
    stopStarted();
    await gateway?.close();
    await new Promise((resolve) => lambda?.server.close(resolve) ?? resolve(undefined));
    client?.destroy();
    await dynamoDb?.stop();
    await rm(work, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(`dump-surfaces failed: ${(error as Error).stack ?? error}`);
    stopStarted();
    process.exit(1);
  },
);
