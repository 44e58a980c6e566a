import type { PrincipalKind } from "#contract/model-context";
import { type ModelTool, modelTools } from "#contract/model-tools";
import type { ConfirmationPolicy } from "#controller/changes/change-path";
import type { ServiceOptions } from "#controller/http/service-client";
import type { IntentStore } from "#controller/intents/store";
import type { ModelAdapter } from "#controller/model/types";
import type { Limits } from "#controller/turn/model-turn";
import type { ReconcileOptions } from "#controller/changes/reconcile";
import type { ApplicationTrace } from "#controller/http/trace-context";
import type { TraceSink } from "#controller/trace/record";

export interface ControllerOptions {
  /** The service over HTTP, with the signed-in principal's own token. */
  service: ServiceOptions;
  model: ModelAdapter;
  /** Who signs in: a customer (default), support staff or a seller. It decides whose text is third-party. */
  principal?: PrincipalKind;
  /** Default: in memory (lost on restart). */
  intents?: IntentStore;
  limits?: Partial<Limits>;
  reconcile?: Partial<ReconcileOptions>;
  confirm?: ConfirmationPolicy;
  /** Where each turn's trace goes. */
  trace?: TraceSink;
  /**
   * The application's trace that a turn joins, asked at the start of each turn (and of `resume`): its `traceparent`
   * and/or X-Ray header. Default: inside a Lambda function, the invocation's `_X_AMZN_TRACE_ID`; elsewhere none, and
   * each turn starts a trace of its own. Every service call carries the turn's trace (contract §8.1).
   */
  traceContext?: () => ApplicationTrace | undefined;
  /** The model's instructions; default `systemPromptFor` today and this principal. */
  system?: string;
  /** The tools offered to the model; default every model-facing tool of the registry. */
  tools?: readonly ModelTool[];
  /**
   * The principal's language for conversations that do not name one (a BCP 47 tag of en, de, fr, es, it, pt, nl or
   * pl; default en): confirmation questions and every text the controller writes itself are rendered in it.
   */
  locale?: string;
  /** How long a held change can be confirmed, in seconds; default 900. */
  confirmationTtlSeconds?: number;
  now?: () => Date;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
}

/**
 * createController's options checked before anything runs (contract §8.1), for plain JavaScript callers as much
 * as for TypeScript ones: a missing model, a value of the wrong type, an option or a tool name misspelt. Each
 * failure throws a TypeError that names the option and says what it takes, so a misconfigured controller fails
 * where it is made, not on the first turn (and not silently: a turn's service failures are its `problem`).
 * Numbers' ranges, the principal and the locale are checked where they are read, by the controller itself.
 */
export function checkOptions(options: unknown): asserts options is ControllerOptions {
  if (!isObject(options)) refuse(`it takes one options object, { service: { baseUrl, token }, model, … }, not ${show(options)}`);
  for (const name of Object.keys(options)) {
    if (!Object.hasOwn(checks, name))
      throw new TypeError(
        `createController: there is no option ${JSON.stringify(name)}. The options are: ${Object.keys(checks).join(", ")}.`,
      );
  }
  for (const [name, check] of Object.entries(checks) as [keyof ControllerOptions, Check][]) {
    const value = options[name];
    if (value === undefined) {
      if (required.has(name)) refuse(`${name} is required: ${check.expects}`);
      continue;
    }
    const wrong = check.test(value);
    if (wrong === "") refuse(`${name} must be ${check.expects}, not ${show(value)}`);
    // "service.token is empty", "tools[1] is named …": a field or an entry of the option reads as its path.
    else if (wrong !== undefined) refuse(`${name}${/^[.[]/.test(wrong) ? "" : " "}${wrong}`);
  }
}

interface Check {
  /** What the option takes, in a sentence's words. */
  expects: string;
  /** Why the value is wrong ("" for "not what it takes"), or undefined when it is right. */
  test(value: unknown): string | undefined;
}

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === "object" && !Array.isArray(value);
const isFunction = (value: unknown): value is (...args: never[]) => unknown => typeof value === "function";
const isThenable = (value: unknown) => isObject(value) && isFunction(value.then);

const ofType = (expects: string, ok: (value: unknown) => boolean): Check => ({ expects, test: (v) => (ok(v) ? undefined : "") });
const aFunction = (expects: string) => ofType(expects, isFunction);
const anObject = (expects: string) => ofType(expects, isObject);

const required: ReadonlySet<keyof ControllerOptions> = new Set(["service", "model"]);

const serviceKeys = ["baseUrl", "token", "fetch", "timeoutMs"];
const intentStoreMethods = ["save", "forConversation", "resumable", "acquireLease", "releaseLease"];

/** One check per option: a new option does not compile until it has one. */
const checks: Record<keyof ControllerOptions, Check> = {
  service: {
    expects:
      'the order service, { baseUrl: "http://127.0.0.1:3000", token: "<the principal\'s bearer token>" } (token may be a function that returns it)',
    test(value) {
      if (!isObject(value)) return "";
      const unknown = Object.keys(value).find((key) => !serviceKeys.includes(key));
      if (unknown !== undefined) return `has no field ${JSON.stringify(unknown)}: it takes ${serviceKeys.join(", ")}`;
      if (typeof value.baseUrl !== "string")
        return `.baseUrl must be the service's URL as a string, like "http://127.0.0.1:3000", not ${show(value.baseUrl)}`;
      const { token } = value;
      if (token === "") return ".token is empty: give the signed-in principal's bearer token, or a function that returns a current one";
      if (typeof token !== "string" && !isFunction(token))
        return `.token must be the principal's bearer token (a string) or a function that returns one, not ${show(token)}`;
      if (value.fetch !== undefined && !isFunction(value.fetch)) return `.fetch must be a fetch function, not ${show(value.fetch)}`;
      if (value.timeoutMs !== undefined && (typeof value.timeoutMs !== "number" || !(value.timeoutMs > 0)))
        return `.timeoutMs must be a number of milliseconds > 0, not ${show(value.timeoutMs)}`;
      return undefined;
    },
  },
  model: {
    expects:
      "a model adapter: anthropicModel({ model }), openaiModel({ model }) or bedrockModel({ modelId }) from order-tools/controller, or scriptedModel(steps) from order-tools/controller/testing",
    test: (value) =>
      isObject(value) && isFunction(value.respond) && typeof value.name === "string"
        ? undefined
        : isThenable(value)
          ? "is a Promise: await it, or pass the adapter itself"
          : "",
  },
  principal: ofType('"customer" (the default), "support" or "seller"', (v) => typeof v === "string"),
  intents: {
    expects: "an intent store: new MemoryIntentStore(), await new FileIntentStore(path).open(), or a DynamoDbIntentStore",
    test: (value) =>
      isThenable(value)
        ? "is a Promise: await it (const intents = await new FileIntentStore(path).open())"
        : isObject(value) && intentStoreMethods.every((method) => isFunction(value[method]))
          ? undefined
          : `must be an intent store, with the methods ${intentStoreMethods.join(", ")}: new MemoryIntentStore(), await new FileIntentStore(path).open(), or a DynamoDbIntentStore`,
  },
  limits: {
    expects: "an object, { maxToolCalls, maxSeconds, maxMessageCharacters }",
    test(value) {
      if (!isObject(value)) return "";
      const chars = value.maxMessageCharacters;
      if (chars !== undefined && !(Number.isInteger(chars) && (chars as number) >= 1))
        return `.maxMessageCharacters must be a whole number of characters ≥ 1 (default 4000), not ${show(chars)}`;
      return undefined;
    },
  },
  reconcile: anObject("an object of reconciliation settings (ReconcileOptions)"),
  confirm: ofType(
    'the changes that always wait for a yes: "all" (every change), { cancel_order: true, … }, or a function (tool, request) => boolean',
    (v) => v === "all" || isObject(v) || isFunction(v),
  ),
  trace: aFunction("a trace sink, a function called with each turn's trace: traceDirectory(dir) or traceCollector().sink"),
  traceContext: aFunction("a function that returns the application's trace, { traceparent, xrayTraceHeader }"),
  system: ofType("the model's instructions, a string", (v) => typeof v === "string"),
  tools: {
    expects: "the tools offered to the model, from modelTools() (all of them by default)",
    test: (value) => (Array.isArray(value) ? toolsProblem(value) : ""),
  },
  locale: ofType("a language tag of en, de, fr, es, it, pt, nl or pl", (v) => typeof v === "string"),
  confirmationTtlSeconds: ofType("a number of seconds > 0", (v) => typeof v === "number"),
  now: aFunction("a function that returns the current Date"),
  sleep: aFunction("a function (ms) => Promise<void>"),
  random: aFunction("a function that returns a number in [0, 1), like Math.random"),
};

/** Each entry must be one of the registry's model-facing tools, named as the registry names it, once. */
function toolsProblem(tools: readonly unknown[]): string | undefined {
  const known = modelTools().map((t) => t.name as string);
  const seen = new Set<string>();
  for (const [i, tool] of tools.entries()) {
    if (typeof tool === "string")
      return `[${i}] is the string ${JSON.stringify(tool)}: tools takes the tool definitions, e.g. modelTools().filter((t) => t.name === ${JSON.stringify(tool)})`;
    const name = isObject(tool) ? tool.name : undefined;
    if (typeof name !== "string" || !isObject(tool) || !isObject(tool.inputSchema))
      return `[${i}] is not a model-facing tool (an object with name, description, kind and inputSchema, from modelTools())`;
    if (!known.includes(name))
      return `[${i}] is named ${JSON.stringify(name)}, which is not a model-facing tool; they are ${known.join(", ")}`;
    if (seen.has(name)) return `names ${name} twice`;
    seen.add(name);
  }
  return undefined;
}

function show(value: unknown): string {
  if (typeof value === "function") return "a function";
  if (typeof value === "string") return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (Array.isArray(value)) return "an array";
  if (isThenable(value)) return "a Promise";
  return value === null || typeof value !== "object" ? String(value) : "an object";
}

function refuse(problem: string): never {
  throw new TypeError(`createController: ${problem}.`);
}
