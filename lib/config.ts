import { RetentionDays } from "aws-cdk-lib/aws-logs";
import type { Node } from "constructs";

/**
 * Everything a deployment can vary, read once from CDK context (`-c key=value` or cdk.json) and checked,
 * so a typo fails the synth with a message instead of deploying something unintended.
 */
export interface OrderToolsConfig {
  /** Names the stacks (`OrderTools-<stage>-Data`, `OrderTools-<stage>-Api`); lower-case letters, digits, dashes. */
  stage: string;
  /** Table deletion protection, and RETAIN for tables and log groups. Off only for throw-away stages. */
  deletionProtection: boolean;
  /** POWERTOOLS_LOG_LEVEL for every function. */
  logLevel: LogLevel;
  /** ORDER_TOOLS_HOURLY_CAP (SPEC §7): per-customer changes per rolling hour; 0 turns the cap off. */
  hourlyCap: number;
  /** An existing identity provider; both or neither. Without them the API stack creates a Cognito user pool. */
  jwt?: { issuer: string; audience: string[] };
  logRetention: RetentionDays;
  /** Default-stage throttling: steady requests per second and burst, for the whole API. */
  throttle: { rateLimit: number; burstLimit: number };
  /** An SNS topic that every alarm notifies; without it the alarms only change state. */
  alarmTopicArn?: string;
  /** Cognito only: where the hosted sign-in may send an authorization code. */
  authCallbackUrls: string[];
  /** Cognito only: the hosted sign-in domain prefix; default `order-tools-<stage>-<account>`. */
  authDomainPrefix?: string;
  /** Cognito only: also create a confidential client-credentials app client for a support back end. */
  supportServiceClient: boolean;
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
  if (!items || !items.every((i): i is string => typeof i === "string")) {
    throw new Error(`Context ${key} must be a comma-separated list of strings, not ${JSON.stringify(value)}.`);
  }
  const trimmed = items.map((i) => i.trim()).filter(Boolean);
  return trimmed.length ? trimmed : undefined;
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

  const logRetention = int(node, "logRetentionDays", RetentionDays.ONE_MONTH, 1);
  if (!retentionDays.has(logRetention)) {
    throw new Error(`Context logRetentionDays must be a retention CloudWatch Logs offers (1, 3, 5, 7, 14, 30, 60, 90, ...), not ${logRetention}.`);
  }

  const throttle = { rateLimit: int(node, "throttleRateLimit", 50, 1), burstLimit: int(node, "throttleBurstLimit", 100, 1) };

  const alarmTopicArn = str(node, "alarmTopicArn");
  if (alarmTopicArn && !alarmTopicArn.startsWith("arn:")) {
    throw new Error(`Context alarmTopicArn must be an SNS topic ARN, not "${alarmTopicArn}".`);
  }

  const authDomainPrefix = str(node, "authDomainPrefix");
  if (authDomainPrefix && !/^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/.test(authDomainPrefix)) {
    throw new Error(`Context authDomainPrefix must be lower-case letters, digits and dashes, not "${authDomainPrefix}".`);
  }

  return {
    stage,
    deletionProtection: bool(node, "deletionProtection", true),
    logLevel: logLevel as LogLevel,
    hourlyCap: int(node, "hourlyCap", 10, 0),
    ...(issuer && audience ? { jwt: { issuer, audience } } : {}),
    logRetention: logRetention as RetentionDays,
    throttle,
    ...(alarmTopicArn ? { alarmTopicArn } : {}),
    authCallbackUrls: list(node, "authCallbackUrls") ?? ["http://localhost:8080/callback"],
    ...(authDomainPrefix ? { authDomainPrefix } : {}),
    supportServiceClient: bool(node, "supportServiceClient", false),
  };
}
