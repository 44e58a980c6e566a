import { toolErrors } from "#contract/error-codes";
import { isToolName, type ToolName, toolNamed } from "#contract/tools";
import type { TurnOutcome } from "#controller/outcomes";
import { openingFor } from "#controller/gate/templates";
import { formatMessage } from "#controller/i18n/format";
import { gateMessages } from "#controller/i18n/gate-messages";
import type { Locale } from "#controller/i18n/locale";
import type { TraceEvent } from "#controller/trace/record";
import { type ProblemCode, problemCodes, type TurnProblem } from "#controller/outcomes";

/**
 * Reading a turn's problem (outcomes.ts says what each code means) from the turn's own trace, after the turn,
 * so every path a call can take (a read, a change, a reconciliation, a confirmed change) is judged by one rule;
 * and the reply the principal gets when one stands in the way.
 */

/** The service codes: the principal is told their orders could not be reached. */
export const serviceProblem = (code: ProblemCode): boolean => code !== "model_failed" && code !== "message_too_long";

type Body = Record<string, unknown>;
const asBody = (value: unknown): Body | undefined =>
  value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Body) : undefined;

/** The turn's problem, if it has one, from its trace events. `baseUrl` is the service's, for the message. */
export function turnProblem(events: readonly TraceEvent[], context: { baseUrl: string; model: string }): TurnProblem | undefined {
  const found = new Map<ProblemCode, TurnProblem>();
  const meet = (problem: Omit<TurnProblem, "count">) =>
    found.set(problem.code, { ...problem, count: (found.get(problem.code)?.count ?? 0) + 1 });
  let request: Extract<TraceEvent, { type: "http_request" }> | undefined;
  let unanswered: TurnProblem | undefined;
  for (const event of events) {
    if (event.type === "http_request") request = event;
    if (event.type === "model_error") meet({ code: "model_failed", message: `The model (${context.model}) failed: ${event.message}` });
    if (event.type === "limit" && event.limit === "message_length")
      meet({
        code: "message_too_long",
        message: `The principal's message is ${event.value} characters long, over limits.maxMessageCharacters: it was not read and nothing changed. Ask for a shorter message, or raise the limit.`,
      });
    if (event.type === "http_failure" && event.failure === "network") {
      const call = `${request?.method ?? "POST"} ${request?.path ?? event.tool}`;
      meet({
        code: "unreachable",
        tool: event.tool,
        message: `No connection to the service at ${context.baseUrl} (${call}: ${event.message}): check service.baseUrl, and that the service is running and reachable from here.`,
      });
      unanswered = found.get("unreachable");
    }
    if (event.type === "http_response") {
      // The service answered: whatever failed to connect before, it is reachable now.
      unanswered = undefined;
      const problem = answerProblem(event, `${request?.method ?? "POST"} ${request?.path ?? event.tool}`, context.baseUrl);
      if (problem) meet(problem);
    }
  }
  if (!unanswered) found.delete("unreachable");
  return problemCodes.map((code) => found.get(code)).find((p) => p !== undefined);
}

/** Whether one answer of the service is a problem, and which. */
function answerProblem(
  response: Extract<TraceEvent, { type: "http_response" }>,
  call: string,
  baseUrl: string,
): Omit<TurnProblem, "count"> | undefined {
  const { tool, status, body } = response;
  const object = asBody(body);
  const error = asBody(object?.error);
  const errorCode = typeof error?.code === "string" ? error.code : typeof object?.message === "string" ? object.message : undefined;
  const said = typeof error?.message === "string" ? ` ("${error.message}")` : "";
  const answered = `HTTP ${status}${errorCode ? ` ${errorCode}` : ""}`;
  const at = { tool, status, ...(errorCode ? { errorCode } : {}) };
  if (status === 401)
    return {
      code: "unauthenticated",
      ...at,
      message: `${call} was refused with ${answered}${said}: the token is missing, expired or not one this service accepts. service.token must give the signed-in principal's current token (as a function, it is asked before every call).`,
    };
  // A tool the principal may not use is the principal's limit, told as a rejection; every other 403 is the token's.
  if (status === 403 && error?.allowedPrincipals === undefined)
    return {
      code: "forbidden",
      ...at,
      message: `${call} was refused with ${answered}${said}: the token lacks a scope this call needs${typeof error?.requiredScope === "string" ? ` (${error.requiredScope})` : ""} or names no principal. Sign the principal in with the scopes orders:read and orders:write.`,
    };
  const mismatch = contractMismatch(tool, status, body, object, error);
  if (mismatch === undefined) return undefined;
  return {
    code: "incompatible",
    ...at,
    message: `${call} was answered with ${mismatch}: what answers at service.baseUrl (${baseUrl}) is not the order-tools service this controller speaks to. baseUrl is the API's base URL without a path (the controller adds /v1/tools/<tool>), and the service and the controller must be of one version.`,
  };
}

/**
 * Why an answer is not one the contract gives this tool (contract §2–§5), if it is not. 5xx answers are the
 * service failing, not a mismatch: a change's outcome is then reconciled, a read's told to the model.
 */
function contractMismatch(
  tool: string,
  status: number,
  body: unknown,
  object: Body | undefined,
  error: Body | undefined,
): string | undefined {
  if (status >= 500) return undefined;
  if (!object) return `HTTP ${status} and a body that is not a JSON object (${JSON.stringify(String(body ?? "").slice(0, 60))})`;
  if (!isToolName(tool)) return undefined;
  if (status === 200) {
    const issue = outputIssue(tool, object);
    return issue === undefined ? undefined : `HTTP 200 and a body that does not match ${tool}'s output schema (${issue})`;
  }
  if (status < 400) return `HTTP ${status}, which the service never answers (a success is 200)`;
  const code = typeof error?.code === "string" ? error.code : undefined;
  // API Gateway's own throttling answers 429 with {"message": …}: a busy service, not another one.
  if (status === 429 && code === undefined) return undefined;
  if (code === undefined) return `HTTP ${status} without the contract's error body ({"error": {"code", "message"}})`;
  if (!(toolErrors[tool] as readonly string[]).includes(code))
    return `HTTP ${status} ${code}, which ${tool} never answers with${code === "NOT_FOUND" ? " (there is no such route)" : ""}`;
  return undefined;
}

/** The first way a 200 body departs from the tool's output schema, other than fields the schema does not name. */
function outputIssue(tool: ToolName, body: Body): string | undefined {
  const result = toolNamed(tool).output.safeParse(body);
  if (result.success) return undefined;
  const issue = result.error.issues.find((i) => i.code !== "unrecognized_keys");
  return issue ? `${issue.path.map(String).join(".") || "the body"}: ${issue.message}` : undefined;
}

/**
 * The reply when the turn's service problem stands in the way: what its outcomes record (as the gate would open
 * with them) and then, in the principal's language, that their orders could not be reached. Never the model's
 * text, which read the failed calls, and never "nothing changed" as if all were well. A change the problem itself
 * refused (a 401 or a token's 403) is not told apart: the sentence is its account.
 */
export function problemReply(outcomes: readonly TurnOutcome[], locale: Locale): string {
  const told = outcomes.filter((o) => !(o.kind === "rejected" && refusedByProblem(o)));
  return [told.length > 0 ? openingFor(told, locale) : "", formatMessage(gateMessages, locale, "unreachable")]
    .filter((s) => s !== "")
    .join(" ");
}

function refusedByProblem(outcome: Extract<TurnOutcome, { kind: "rejected" }>): boolean {
  return (
    outcome.code === "UNAUTHENTICATED" || (outcome.code === "FORBIDDEN" && asBody(outcome.body.error)?.allowedPrincipals === undefined)
  );
}
