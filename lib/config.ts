import { RetentionDays } from "aws-cdk-lib/aws-logs";
import type { Node } from "constructs";
import { defaultHourlyCap, defaultSellerHourlyCap, defaultSupportHourlyCap } from "#store/hourly-cap";
import { defaultRequestBudget } from "#store/request-budget";
import { type UnconfirmedChanges, unconfirmedChangesFrom, unconfirmedChangesSettings } from "#runtime/mcp-confirmation-settings";
import { orderIndexSteps } from "#store/table-design";
import { type ShopSets, shopSetsFrom, shopSetVariables } from "#core/order";

/**
 * What a function traces beyond Lambda's own segments (context `tracer`; docs/operations.md, "Traces"):
 * - `lambda` (default): X-Ray active tracing only. Lambda records every sampled invocation (its init, its
 *   invocation and the time around them) and the trace id reaches every log line; the bundle carries no tracing code.
 * - `powertools`: the Powertools Tracer too, for a subsegment per tool call annotated with tool, operationId, orderId,
 *   outcome, principal kind and the caller's trace, and one per DynamoDB or Lambda request. It adds the X-Ray SDK
 *   (about 120 KB) to every bundle that has a client, which takes three bundles past the 250 KB budget, and its cold
 *   start was not shown to stay within 1.3× (docs/benchmarks.md, "Tracing"): a choice for a stage under
 *   investigation, not the default.
 */
export const tracerSettings = ["lambda", "powertools"] as const;
export type TracerSetting = (typeof tracerSettings)[number];

/**
 * Everything a deployment can vary, read once from CDK context (`-c key=value` or cdk.json) and checked,
 * so a typo fails the synth with a message instead of deploying something unintended. This is the reference of the
 * context keys docs/deploy.md points to: each field names its key (the field's own name unless it says otherwise)
 * and its default. Two keys are read elsewhere: `bedrockAgentArn` (lib/api-stack.ts; docs/deploy.md, "Bedrock
 * Agents") and `evalGateOverride` (bin/order-tools.ts).
 */
export interface OrderToolsConfig {
  /** Names the stacks (`OrderTools-<stage>-Data`, `OrderTools-<stage>-Api`); lower-case letters, digits, dashes. Default `dev`. */
  stage: string;
  /**
   * A production stage: Cognito's redirect URLs must then be given explicitly (no localhost default) and be
   * https. Context `production`; by default true for a stage named `prod` or `production` (alone or followed by
   * a dash: `prod-eu`), false otherwise.
   */
  production: boolean;
  /** DynamoDB and Cognito deletion protection, and RETAIN for tables, user pools and log groups. Default true; false only for throw-away stages. */
  deletionProtection: boolean;
  /**
   * Context `orderIndexStep` (0–12): one step of moving a deployed orders table from the previous layout's order
   * indexes to the summary ones, one GSI per table update (`ordersTableAt`; docs/deploy.md, "Moving a table to the
   * split order layout"). Absent: the table as designed now.
   */
  orderIndexStep?: number;
  /** POWERTOOLS_LOG_LEVEL for every function (DEBUG, INFO, WARN, ERROR, CRITICAL, SILENT). Default `INFO`. */
  logLevel: LogLevel;
  /** ORDER_TOOLS_HOURLY_CAP (contract §7): per-customer cancellations, returns and replacements per rolling hour; 0 turns the cap off. Default 10. */
  hourlyCap: number;
  /** ORDER_TOOLS_SUPPORT_HOURLY_CAP: changes per support actor (`sub`) per rolling hour, any changing tool; 0 turns it off. Default 60. */
  supportHourlyCap: number;
  /** ORDER_TOOLS_SELLER_HOURLY_CAP: changes per seller actor (seller and `sub`) per rolling hour; 0 turns it off. Default 60. */
  sellerHourlyCap: number;
  /** ORDER_TOOLS_REQUEST_BUDGET: requests per principal (`sub`) per minute, every tool call; 0 turns it off. Default 120. */
  requestBudget: number;
  /**
   * An existing identity provider, contexts `jwtIssuer` (its https issuer URL) and `jwtAudience` (comma-separated):
   * both or neither. Without them the API stack creates the three Cognito user pools and their APIs.
   */
  jwt?: { issuer: string; audience: string[] };
  /**
   * Retention of the log groups whose lines are for day-to-day debugging: the reading tools, MCP, the catalogue,
   * OpenAPI and the token triggers (context `logRetentionDays`, default 30 days).
   */
  logRetention: RetentionDays;
  /** Retention of the changing tools' log groups: one line per change request, who and which operation (`changeLogRetentionDays`, default 365). */
  changeLogRetention: RetentionDays;
  /** Retention of the APIs' access logs, which hold callers' IP addresses (`accessLogRetentionDays`, default 90). */
  accessLogRetention: RetentionDays;
  /** `$default` stage throttling of each API, per route: `throttleRateLimit` requests per second (default 50) and `throttleBurstLimit` (100). */
  throttle: { rateLimit: number; burstLimit: number };
  /** An SNS topic of your own that every alarm notifies; without it the data stack creates one. */
  alarmTopicArn?: string;
  /**
   * Context `alarmEmail`, comma-separated: addresses subscribed to the topic the data stack creates (each must confirm
   * the subscription). A production stage needs it or `alarmTopicArn`, not both.
   */
  alarmEmails: string[];
  /**
   * One customer-managed KMS key (rotated yearly) for both tables, every log group and the alarm topic, instead of
   * the AWS managed DynamoDB key and the services' own encryption. Context `customerManagedKey`, default false.
   */
  customerManagedKey: boolean;
  /**
   * ORDER_TOOLS_MCP_ALLOWED_ORIGINS of the MCP function: browser origins whose pages may call POST /v1/mcp, and
   * the CORS origins of the API(s). Empty: every request that carries an Origin header is refused.
   */
  mcpAllowedOrigins: string[];
  /**
   * Context `mcpUnconfirmedChanges`, ORDER_TOOLS_MCP_UNCONFIRMED_CHANGES of the MCP function: what a change gets from
   * an MCP client that cannot be asked to confirm it (contract §2.1): `allow` (the default) makes it as before,
   * `refuse` answers CONFIRMATION_REQUIRED. A client that can be asked always is.
   */
  mcpUnconfirmedChanges: UnconfirmedChanges;
  /**
   * Context `carriers` and `chargeKinds` (a JSON array or names separated by commas): the order system's carriers and
   * charge kinds, ORDER_TOOLS_CARRIERS and ORDER_TOOLS_CHARGE_KINDS of every tool function when given (contract §6;
   * docs/deploy.md). Today's sets by default. What checks them is what writes orders (the seeder); the read path
   * answers any stored value as text, and the published schema takes it.
   */
  shopSets?: Partial<ShopSets>;
  /** ORDER_TOOLS_PUBLIC_URL of the OpenAPI function of the customers' API (or the only one): a custom domain in front of it. */
  publicUrl?: string;
  /** The same for the staff API (created with the user pools only). */
  staffPublicUrl?: string;
  /** The same for the sellers' API (created with the user pools only). */
  sellerPublicUrl?: string;
  /** POWERTOOLS_SERVICE_NAME of every function: `order-tools-<stage>`, the `service` dimension of the stage's metrics. */
  serviceName: string;
  /**
   * Context `tracer`: every function has X-Ray active tracing; `powertools` also builds the Powertools Tracer into
   * them (annotations, a subsegment per DynamoDB request), at a cold-start cost over budget. Default `lambda`.
   */
  tracer: TracerSetting;
  /** Run AWS Control Tower's proactive controls (cfn-guard) over the templates at synth (default); `controlTowerChecks=false` skips them. */
  controlTowerChecks: boolean;
  /**
   * Cognito only: where the customers' hosted sign-in may send an authorization code (comma-separated; https, an
   * app's own scheme, or http://localhost outside production). Required on a production stage; elsewhere default
   * `http://localhost:8080/callback`, as for the two below.
   */
  authCallbackUrls: string[];
  /** Cognito only: where the staff pool's hosted sign-in may send an authorization code. */
  staffAuthCallbackUrls: string[];
  /** Cognito only: where the sellers' pool's hosted sign-in may send an authorization code. */
  sellerAuthCallbackUrls: string[];
  /**
   * Cognito only: the customers' hosted sign-in domain prefix; default `order-tools-<stage>-<account>`. The staff
   * pool's is the same followed by `-staff`, the sellers' by `-sellers`.
   */
  authDomainPrefix?: string;
  /** Cognito only: also create a confidential client-credentials app client (in the staff pool) for a support back end. Default false. */
  supportServiceClient: boolean;
  /**
   * Cognito only (context `mcpClients`): the MCP clients (Claude, ChatGPT, VS Code, …) to pre-register an app
   * client for in each user pool, since Cognito registers none on request. Their tokens are accepted by POST
   * /v1/mcp, alongside the pool's own app client's.
   */
  mcpClients: McpClientConfig[];
}

/** One MCP client to pre-register: a name (the app client's, and its stack output's) and where it may be sent back. */
export interface McpClientConfig {
  name: string;
  redirectUrls: string[];
  /** A client that keeps a secret (a web service like ChatGPT's connectors may): Cognito generates one. */
  confidential: boolean;
}

export const logLevels = ["DEBUG", "INFO", "WARN", "ERROR", "CRITICAL", "SILENT"] as const;
export type LogLevel = (typeof logLevels)[number];

const retentionDays = new Set<number>(Object.values(RetentionDays).filter((v): v is number => typeof v === "number"));

/** Context given on the command line arrives as strings, from cdk.json or tests as JSON values. */
function read(node: Node, key: string): unknown {
  const value: unknown = node.tryGetContext(key);
  return value === "" ? undefined : value;
}

function bool(node: Node, key: string, fallback: boolean): boolean {
  const value = read(node, key);
  if (value === undefined) return fallback;
  if (value === true || value === "true") return true;
  if (value === false || value === "false") return false;
  throw new Error(`Context ${key} must be true or false, not ${JSON.stringify(value)}.`);
}

function int(node: Node, key: string, fallback: number, min: number): number {
  const value = read(node, key);
  if (value === undefined) return fallback;
  const n = typeof value === "number" ? value : typeof value === "string" && /^-?\d+$/.test(value.trim()) ? Number(value) : Number.NaN;
  if (!Number.isInteger(n) || n < min) {
    throw new Error(`Context ${key} must be a whole number of at least ${min}, not ${JSON.stringify(value)}.`);
  }
  return n;
}

function str(node: Node, key: string): string | undefined {
  const value = read(node, key);
  if (value === undefined) return undefined;
  if (typeof value !== "string") throw new Error(`Context ${key} must be a string, not ${JSON.stringify(value)}.`);
  return value.trim() || undefined;
}

/** A list given either as a JSON array (cdk.json) or as a comma-separated string (`-c`). */
function list(node: Node, key: string): string[] | undefined {
  const value = read(node, key);
  if (value === undefined) return undefined;
  const items = Array.isArray(value) ? value : typeof value === "string" ? value.split(",") : undefined;
  if (!items?.every((i): i is string => typeof i === "string")) {
    throw new Error(`Context ${key} must be a comma-separated list of strings, not ${JSON.stringify(value)}.`);
  }
  const trimmed = items.map((i) => i.trim()).filter(Boolean);
  return trimmed.length ? trimmed : undefined;
}

/** Where a development stage's hosted sign-in redirects when no callback URL is given. */
export const developmentCallbackUrl = "http://localhost:8080/callback";

/** Stages that are production unless context says otherwise. */
const productionStage = /^prod(uction)?(-|$)/;

/**
 * Redirect URLs Cognito accepts (https, an app's own scheme, or http only to localhost), and in production no
 * plain http at all. Without them on a production stage the synth stops: a localhost default would deploy a
 * pool whose sign-in redirects nowhere useful, or somewhere a local process listens.
 */
function callbackUrls(node: Node, key: string, production: boolean, stage: string): string[] {
  const urls = list(node, key);
  if (!urls) {
    if (production) {
      throw new Error(
        `Context ${key} is required for the production stage "${stage}": give your app's redirect URL(s), comma-separated, e.g. -c ${key}=https://app.example.com/callback. The development default ${developmentCallbackUrl} is never used in production (or set -c production=false if this stage is not production).`,
      );
    }
    return [developmentCallbackUrl];
  }
  for (const url of urls) {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new Error(`Context ${key} must list absolute URLs such as https://app.example.com/callback, not "${url}".`);
    }
    if (parsed.hash) throw new Error(`Context ${key}: a redirect URL may not have a #fragment ("${url}").`);
    const localhost = parsed.protocol === "http:" && parsed.hostname === "localhost";
    if (parsed.protocol === "http:" && (production || !localhost)) {
      throw new Error(
        production
          ? `Context ${key}: the production stage "${stage}" needs https redirect URLs, not "${url}".`
          : `Context ${key}: plain http is allowed only for http://localhost; use https for "${url}".`,
      );
    }
  }
  return urls;
}

function retention(node: Node, key: string, fallback: RetentionDays): RetentionDays {
  const days = int(node, key, fallback, 1);
  if (!retentionDays.has(days)) {
    throw new Error(
      `Context ${key} must be a retention CloudWatch Logs offers (1, 3, 5, 7, 14, 30, 60, 90, 120, 150, 180, 365, 400, 545, 731, ...), not ${days}.`,
    );
  }
  return days as RetentionDays;
}

/**
 * Browser origins exactly as a browser sends them (`https://app.example.com`, a port if not the default, no path),
 * https only, or http://localhost outside production. `*` is refused: it would let any page a signed-in user
 * visits call MCP with that user's token, if it holds one.
 */
function origins(node: Node, key: string, production: boolean): string[] {
  const given = list(node, key) ?? [];
  for (const origin of given) {
    let parsed: URL | undefined;
    try {
      parsed = new URL(origin);
    } catch {
      parsed = undefined;
    }
    if (!parsed || parsed.origin !== origin) {
      throw new Error(
        `Context ${key} must list browser origins such as https://app.example.com (scheme, host and port only, no path or trailing slash), not "${origin}".`,
      );
    }
    const localhost = parsed.protocol === "http:" && parsed.hostname === "localhost";
    if (parsed.protocol !== "https:" && (production || !localhost)) {
      throw new Error(
        production
          ? `Context ${key}: a production stage accepts https origins only, not "${origin}".`
          : `Context ${key}: plain http is allowed only for http://localhost; use https for "${origin}".`,
      );
    }
  }
  return [...new Set(given)];
}

/** A public https URL for the API (custom domain, optionally with a base path), without a trailing slash. */
function publicUrl(node: Node, key: string): string | undefined {
  const value = str(node, key);
  if (value === undefined) return undefined;
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (url?.protocol !== "https:" || url.search || url.hash || url.username || url.password) {
    throw new Error(
      `Context ${key} must be the API's public https URL, like https://api.example.com or https://example.com/orders (no query, fragment or credentials), not "${value}".`,
    );
  }
  return url.href.replace(/\/+$/, "");
}

/**
 * Context mcpClients: a JSON array (in cdk.json, or as a JSON string with -c) of {"name", "redirectUrls",
 * "confidential"?}. Redirect URLs as Cognito accepts them: https, an app's own scheme, or http only to localhost.
 */
function mcpClients(node: Node): McpClientConfig[] {
  let value = read(node, "mcpClients");
  if (value === undefined) return [];
  const example = '[{"name": "Claude", "redirectUrls": ["https://claude.ai/api/mcp/auth_callback"]}]';
  if (typeof value === "string") {
    try {
      value = JSON.parse(value);
    } catch {
      throw new Error(`Context mcpClients must be a JSON array such as ${example}, not ${JSON.stringify(value)}.`);
    }
  }
  if (!Array.isArray(value)) throw new Error(`Context mcpClients must be a JSON array such as ${example}, not ${JSON.stringify(value)}.`);
  const seen = new Set<string>();
  return value.map((entry: unknown, i: number) => {
    const at = `Context mcpClients[${i}]`;
    if (entry === null || typeof entry !== "object" || Array.isArray(entry))
      throw new Error(`${at} must be an object like ${example.slice(1, -1)}.`);
    const { name, redirectUrls, confidential, ...rest } = entry as Record<string, unknown>;
    const unknown = Object.keys(rest);
    if (unknown.length)
      throw new Error(
        `${at} has ${unknown.map((k) => JSON.stringify(k)).join(", ")}; an MCP client has only name, redirectUrls and confidential.`,
      );
    if (typeof name !== "string" || !/^[A-Za-z][A-Za-z0-9 ._-]{0,39}$/.test(name)) {
      throw new Error(
        `${at}.name must be 1–40 letters, digits, spaces, '.', '_' or '-', starting with a letter (it names the app client and its stack output), not ${JSON.stringify(name)}.`,
      );
    }
    if (seen.has(name.toLowerCase()))
      throw new Error(`${at}.name ${JSON.stringify(name)} is given twice; each MCP client gets one app client.`);
    seen.add(name.toLowerCase());
    if (!Array.isArray(redirectUrls) || redirectUrls.length === 0 || !redirectUrls.every((u): u is string => typeof u === "string")) {
      throw new Error(`${at}.redirectUrls must list the client's OAuth redirect URL(s), e.g. ["https://claude.ai/api/mcp/auth_callback"].`);
    }
    for (const url of redirectUrls) {
      let parsed: URL | undefined;
      try {
        parsed = new URL(url);
      } catch {
        parsed = undefined;
      }
      if (!parsed || parsed.hash)
        throw new Error(`${at}.redirectUrls must be absolute URLs without a #fragment, not ${JSON.stringify(url)}.`);
      if (parsed.protocol === "http:" && parsed.hostname !== "localhost") {
        throw new Error(
          `${at}.redirectUrls: Cognito accepts plain http only for http://localhost (use http://localhost:<port>/… for a client on this machine, https otherwise), not ${JSON.stringify(url)}.`,
        );
      }
    }
    if (confidential !== undefined && typeof confidential !== "boolean")
      throw new Error(`${at}.confidential must be true or false, not ${JSON.stringify(confidential)}.`);
    return { name, redirectUrls: [...new Set(redirectUrls)], confidential: confidential === true };
  });
}

function emails(node: Node, key: string): string[] {
  const given = list(node, key) ?? [];
  for (const email of given) {
    if (!/^[^@\s,]+@[^@\s,]+\.[^@\s,]+$/.test(email))
      throw new Error(`Context ${key} must list email addresses such as ops@example.com, comma-separated, not "${email}".`);
  }
  return [...new Set(given)];
}

export function readConfig(node: Node): OrderToolsConfig {
  const stage = str(node, "stage") ?? "dev";
  if (!/^[a-z][a-z0-9-]{0,19}$/.test(stage)) {
    throw new Error(`Context stage must be 1–20 lower-case letters, digits or dashes starting with a letter, not "${stage}".`);
  }

  const logLevel = (str(node, "logLevel") ?? "INFO").toUpperCase();
  if (!(logLevels as readonly string[]).includes(logLevel)) {
    throw new Error(`Context logLevel must be one of ${logLevels.join(", ")}, not "${logLevel}".`);
  }

  const issuer = str(node, "jwtIssuer");
  const audience = list(node, "jwtAudience");
  if (Boolean(issuer) !== Boolean(audience)) {
    throw new Error("Give both jwtIssuer and jwtAudience for an existing identity provider, or neither to create a Cognito user pool.");
  }
  if (issuer && !/^https:\/\/\S+$/.test(issuer)) {
    throw new Error(`Context jwtIssuer must be the provider's https:// issuer URL, not "${issuer}".`);
  }

  // Day-to-day debugging needs a month; the change log is the per-call record of every change, kept a year
  // (AWS Control Tower's CT.CLOUDWATCH.PR.2 minimum); access logs hold IP addresses, kept a quarter.
  const logRetention = retention(node, "logRetentionDays", RetentionDays.ONE_MONTH);
  const changeLogRetention = retention(node, "changeLogRetentionDays", RetentionDays.ONE_YEAR);
  const accessLogRetention = retention(node, "accessLogRetentionDays", RetentionDays.THREE_MONTHS);

  const throttle = { rateLimit: int(node, "throttleRateLimit", 50, 1), burstLimit: int(node, "throttleBurstLimit", 100, 1) };

  const alarmTopicArn = str(node, "alarmTopicArn");
  if (alarmTopicArn && !/^arn:aws[a-z-]*:sns:[a-z0-9-]+:\d{12}:[A-Za-z0-9_-]{1,256}$/.test(alarmTopicArn)) {
    throw new Error(
      `Context alarmTopicArn must be an SNS topic ARN such as arn:aws:sns:eu-west-1:111122223333:ops, not "${alarmTopicArn}".`,
    );
  }
  const alarmEmails = emails(node, "alarmEmail");
  if (alarmTopicArn && alarmEmails.length) {
    throw new Error(
      "Give alarmEmail (subscribed to the topic this stack creates) or alarmTopicArn (your own topic: subscribe there), not both.",
    );
  }

  const authDomainPrefix = str(node, "authDomainPrefix");
  // 55 characters at most, so that the sellers' pool's `<prefix>-sellers` still fits Cognito's 63.
  if (authDomainPrefix && !/^[a-z0-9](?:[a-z0-9-]{0,53}[a-z0-9])?$/.test(authDomainPrefix)) {
    throw new Error(
      `Context authDomainPrefix must be 1–55 lower-case letters, digits and dashes, starting and ending with a letter or digit (the sellers' pool adds "-sellers" within Cognito's 63), not "${authDomainPrefix}".`,
    );
  }

  const tracer = (str(node, "tracer") ?? "lambda").toLowerCase();
  if (!(tracerSettings as readonly string[]).includes(tracer)) {
    throw new Error(
      `Context tracer must be lambda (X-Ray active tracing only, the default) or powertools (the Powertools Tracer too: annotations and a subsegment per DynamoDB request, at a cold-start cost), not "${tracer}".`,
    );
  }

  const orderIndexStep = read(node, "orderIndexStep") === undefined ? undefined : int(node, "orderIndexStep", 0, 0);
  if (orderIndexStep !== undefined && orderIndexStep > orderIndexSteps) {
    throw new Error(
      `Context orderIndexStep must be a whole number from 0 to ${orderIndexSteps} (docs/deploy.md, "Moving a table to the split order layout"), not ${orderIndexStep}.`,
    );
  }

  const production = bool(node, "production", productionStage.test(stage));
  // Callback URLs matter only for the user pools made here; with an existing provider there are none to register.
  const cognito = !issuer;
  const authCallbackUrls = cognito ? callbackUrls(node, "authCallbackUrls", production, stage) : [];
  const staffAuthCallbackUrls = cognito ? callbackUrls(node, "staffAuthCallbackUrls", production, stage) : [];
  const sellerAuthCallbackUrls = cognito ? callbackUrls(node, "sellerAuthCallbackUrls", production, stage) : [];
  if (production && !alarmTopicArn && !alarmEmails.length) {
    throw new Error(
      `The production stage "${stage}" needs someone to receive its alarms: give -c alarmEmail=ops@example.com (comma-separated; each address confirms its subscription) or -c alarmTopicArn=<an SNS topic of yours> (or set -c production=false if this stage is not production).`,
    );
  }
  const customersPublicUrl = publicUrl(node, "publicUrl");
  const staffPublicUrl = publicUrl(node, "staffPublicUrl");
  if (staffPublicUrl && !cognito) {
    throw new Error(
      "Context staffPublicUrl applies only to the staff API, which exists only with the user pools this stack creates; with jwtIssuer there is one API: use publicUrl.",
    );
  }
  const sellerPublicUrl = publicUrl(node, "sellerPublicUrl");
  if (sellerPublicUrl && !cognito) {
    throw new Error(
      "Context sellerPublicUrl applies only to the sellers' API, which exists only with the user pools this stack creates; with jwtIssuer there is one API: use publicUrl.",
    );
  }

  return {
    stage,
    production,
    deletionProtection: bool(node, "deletionProtection", true),
    ...(orderIndexStep !== undefined ? { orderIndexStep } : {}),
    logLevel: logLevel as LogLevel,
    hourlyCap: int(node, "hourlyCap", defaultHourlyCap, 0),
    supportHourlyCap: int(node, "supportHourlyCap", defaultSupportHourlyCap, 0),
    sellerHourlyCap: int(node, "sellerHourlyCap", defaultSellerHourlyCap, 0),
    requestBudget: int(node, "requestBudget", defaultRequestBudget, 0),
    ...(issuer && audience ? { jwt: { issuer, audience } } : {}),
    logRetention,
    changeLogRetention,
    accessLogRetention,
    throttle,
    ...(alarmTopicArn ? { alarmTopicArn } : {}),
    alarmEmails,
    customerManagedKey: bool(node, "customerManagedKey", false),
    mcpAllowedOrigins: origins(node, "mcpAllowedOrigins", production),
    mcpUnconfirmedChanges: unconfirmedChanges(node),
    ...shopSetsOf(node),
    ...(customersPublicUrl ? { publicUrl: customersPublicUrl } : {}),
    ...(staffPublicUrl ? { staffPublicUrl } : {}),
    ...(sellerPublicUrl ? { sellerPublicUrl } : {}),
    serviceName: `order-tools-${stage}`,
    tracer: tracer as TracerSetting,
    controlTowerChecks: bool(node, "controlTowerChecks", true),
    authCallbackUrls,
    staffAuthCallbackUrls,
    sellerAuthCallbackUrls,
    ...(authDomainPrefix ? { authDomainPrefix } : {}),
    supportServiceClient: bool(node, "supportServiceClient", false),
    mcpClients: cognito ? mcpClients(node) : rejectMcpClientsWithIssuer(node),
  };
}

/** The shop's sets given as context, checked as the functions and the seeder read them (`shopSetsFrom`). */
function shopSetsOf(node: Node): { shopSets?: Partial<ShopSets> } {
  const given: Partial<ShopSets> = {};
  for (const key of ["carriers", "chargeKinds"] as const) {
    const names = list(node, key);
    if (!names) continue;
    try {
      given[key] = shopSetsFrom({ [shopSetVariables[key]]: names.join(",") })[key];
    } catch (error) {
      throw new Error(`Context ${key}: ${(error as Error).message}`);
    }
  }
  return Object.keys(given).length > 0 ? { shopSets: given } : {};
}

/** The environment of a tool function for the shop's sets a deployment gives; none when it keeps the defaults. */
export function shopSetEnvironment(config: Pick<OrderToolsConfig, "shopSets">): Record<string, string> {
  const { carriers, chargeKinds } = config.shopSets ?? {};
  return {
    ...(carriers ? { [shopSetVariables.carriers]: carriers.join(",") } : {}),
    ...(chargeKinds ? { [shopSetVariables.chargeKinds]: chargeKinds.join(",") } : {}),
  };
}

/** The setting, checked as the MCP function reads it, so a typo fails the synth rather than every change. */
function unconfirmedChanges(node: Node): UnconfirmedChanges {
  const value = read(node, "mcpUnconfirmedChanges");
  if (value !== undefined && typeof value !== "string")
    throw new Error(`Context mcpUnconfirmedChanges must be one of ${unconfirmedChangesSettings.join(", ")}, not ${JSON.stringify(value)}.`);
  try {
    return unconfirmedChangesFrom(value);
  } catch (error) {
    throw new Error(`Context ${(error as Error).message.replace(/^\S+ \(CDK context mcpUnconfirmedChanges\)/, "mcpUnconfirmedChanges")}`);
  }
}

/** With an existing identity provider, MCP clients are registered there, not here. */
function rejectMcpClientsWithIssuer(node: Node): McpClientConfig[] {
  if (read(node, "mcpClients") !== undefined) {
    throw new Error(
      "Context mcpClients applies only to the user pools this stack creates; with jwtIssuer, register the MCP clients with your identity provider and list their audiences in jwtAudience.",
    );
  }
  return [];
}
