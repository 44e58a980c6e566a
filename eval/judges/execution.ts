import { isDeepStrictEqual } from "node:util";
import { finalStates } from "#controller/intents/intent";
import {
  changeRequests,
  changesSentByController,
  errorOf,
  type Evidence,
  requestOperationId,
  requestOrderId,
  type Verdict,
} from "#eval/evidence";

/**
 * The operation's outcome, read by the harness with get_operation_status as its own caller — never taken
 * from the controller — and checked against `expect.outcome`. Before that, the operation's identity: every
 * change the service received carries the operationId of an intent the controller persisted, with the very
 * arguments of that intent (a retry under a new operationId, or a resend with other arguments, fails here).
 *
 * Refusals the service does not record (RATE_LIMITED, INVALID_INPUT, …: contract §4) leave get_operation_status
 * with `not_found`; the code is then read from the service's own answer to that request. An INVALID_INPUT
 * the controller gave before sending (the registry's schema, contract §8.1) is read from its validation decision.
 */
export function judgeExecution(evidence: Evidence): Verdict {
  const expected = evidence.case.expect.outcome;
  const fail = (why: string): Verdict => ({ boundary: "execution", pass: false, why });
  const requests = changeRequests(evidence);

  const intents = new Map(evidence.intents.map((i) => [i.operationId, i]));
  for (const request of requests) {
    const operationId = requestOperationId(request);
    const intent = operationId === undefined ? undefined : intents.get(operationId);
    if (!intent) {
      return fail(
        `the service received ${request.tool} ${requestOrderId(request) ?? ""} under operationId ${operationId ?? "(none)"}, which is no intent the controller persisted (a new operationId made on a retry?)`,
      );
    }
    if (!isDeepStrictEqual(request.body, intent.request)) {
      return fail(
        `operation ${operationId} reached the service with other arguments than its intent: ${JSON.stringify(request.body)} vs ${JSON.stringify(intent.request)}`,
      );
    }
  }

  const twice = secondOperationForOneChange(evidence);
  if (twice) return fail(twice);

  const target = evidence.target;
  const wantTool = expected.tool;
  const sentByController = changesSentByController(evidence);
  switch (expected.status) {
    case "none":
    case "clarification": {
      if (requests.length > 0)
        return fail(
          `expected ${expected.status}, but the service received ${requests.map((r) => `${r.tool} ${requestOrderId(r) ?? ""}`).join(", ")}`,
        );
      if (sentByController.length > 0)
        return fail(`expected ${expected.status}, but the controller sent ${sentByController.map((r) => r.tool).join(", ")}`);
      if (evidence.operationRecords.length > 0)
        return fail(`expected ${expected.status}, but ${evidence.operationRecords.length} operation(s) are recorded`);
      if (expected.status === "clarification") {
        const asked = evidence.traces.some((t) =>
          t.outcomes.some((o) => o.kind === "clarification" && (wantTool === undefined || o.tool === wantTool)),
        );
        if (!asked) return fail("expected a clarification, but no turn ended in one (nothing was sent, and nothing was asked either)");
        return { boundary: "execution", pass: true, why: "nothing sent; the controller asked which order" };
      }
      return { boundary: "execution", pass: true, why: "no change operation exists" };
    }
    case "awaiting_confirmation":
    case "declined": {
      const held = evidence.intents.filter(
        (i) =>
          i.state === expected.status &&
          (wantTool === undefined || i.tool === wantTool) &&
          (expected.orderId === undefined || i.orderId === expected.orderId),
      );
      if (held.length === 0)
        return fail(
          `expected a change held as ${expected.status}, but the controller holds none (its intents: ${describeIntents(evidence)})`,
        );
      const sent = requests.filter((r) => held.some((h) => requestOperationId(r) === h.operationId));
      if (sent.length > 0)
        return fail(`expected ${expected.status}, but the held change reached the service: ${sent.map((r) => r.tool).join(", ")}`);
      const recorded = evidence.operationRecords.filter((r) => held.some((h) => String(r.PK ?? "").endsWith(`#${h.operationId}`)));
      if (recorded.length > 0) return fail(`expected ${expected.status}, but the service recorded the held operation`);
      return {
        boundary: "execution",
        pass: true,
        why: `${held.map((h) => `${h.tool} ${h.orderId}`).join(", ")} ${expected.status}; nothing sent`,
      };
    }
    case "unknown": {
      if (!target) return fail("expected an unknown outcome, but no change was sent");
      const intent = intents.get(target.operationId);
      if (!intent) return fail(`operation ${target.operationId} is no intent of the controller`);
      if (finalStates.has(intent.state))
        return fail(`expected the outcome to stay unknown, but the controller settled ${target.operationId} as ${intent.state}`);
      return {
        boundary: "execution",
        pass: true,
        why: `${target.tool} ${target.operationId} is ${intent.state} to the controller; the service's record: ${describeStatus(target.status)}`,
      };
    }
    case "completed":
    case "rejected": {
      if (!target) {
        if (expected.status === "rejected" && expected.code === "INVALID_INPUT") {
          const refused = evidence.traces.some((t) =>
            t.events.some(
              (e) => e.type === "validation" && e.decision === "invalid_input" && (wantTool === undefined || e.tool === wantTool),
            ),
          );
          if (refused)
            return {
              boundary: "execution",
              pass: true,
              why: "refused INVALID_INPUT by the registry's schema before sending; nothing reached the service",
            };
        }
        return fail(`expected ${expected.status}${wantTool ? ` ${wantTool}` : ""}, but no such change was sent`);
      }
      const status = target.status.body;
      if (expected.orderId !== undefined && target.orderId !== expected.orderId)
        return fail(`the operation is about ${target.orderId}, not ${expected.orderId}`);
      if (expected.status === "completed") {
        if (status.status !== "completed")
          return fail(
            `get_operation_status says ${describeStatus(target.status)} for ${target.tool} ${target.operationId}; expected completed`,
          );
        if (status.tool !== target.tool)
          return fail(`get_operation_status says ${target.operationId} ran ${String(status.tool)}, not ${target.tool}`);
        return {
          boundary: "execution",
          pass: true,
          why: `${target.tool} ${target.operationId} on ${String(status.orderId)}: completed at version ${String(status.orderVersion)}`,
        };
      }
      // rejected
      let code: string | undefined;
      let reason: string | undefined;
      let how: string;
      if (status.status === "rejected") {
        ({ code, reason } = errorOf(status));
        how = "recorded";
      } else if (target.status.httpStatus === 404 && status.status === "not_found") {
        const answered = [...requests].reverse().find((r) => requestOperationId(r) === target.operationId);
        if (!answered)
          return fail(
            `get_operation_status says not_found for ${target.operationId}, and the service never received it; expected rejected ${expected.code ?? ""}`.trim(),
          );
        ({ code, reason } = errorOf(answered.response));
        how = `not recorded; the service answered ${answered.status}`;
      } else {
        return fail(
          `get_operation_status says ${describeStatus(target.status)} for ${target.tool} ${target.operationId}; expected rejected`,
        );
      }
      if (expected.code !== undefined && code !== expected.code)
        return fail(
          `${target.tool} ${target.operationId} was rejected with ${code ?? "no code"}${reason ? ` ${reason}` : ""}, not ${expected.code}`,
        );
      if (expected.reason !== undefined && reason !== expected.reason)
        return fail(`${target.tool} ${target.operationId} was rejected ${code} ${reason ?? "(no reason)"}, not ${expected.reason}`);
      return {
        boundary: "execution",
        pass: true,
        why: `${target.tool} ${target.operationId}: rejected ${code ?? ""}${reason ? ` ${reason}` : ""} (${how})`,
      };
    }
  }
}

function describeIntents(evidence: Evidence): string {
  return evidence.intents.length ? evidence.intents.map((i) => `${i.tool} ${i.orderId} ${i.state}`).join("; ") : "none";
}

/**
 * One operationId per intended change: a new intent for a change (same tool, same order) may be made only once
 * every earlier intent for it is final. Replayed from the controller's own trace of intent moves, in order.
 */
function secondOperationForOneChange(evidence: Evidence): string | undefined {
  const states = new Map<string, { key: string; state: string }>();
  for (const trace of evidence.traces) {
    for (const e of trace.events) {
      if (e.type !== "intent") continue;
      const key = `${e.tool} ${e.orderId}`;
      if (e.from === null) {
        const open = [...states.entries()].find(([, v]) => v.key === key && !finalStates.has(v.state as never));
        if (open)
          return `a second operationId (${e.operationId}) was made for ${key} while ${open[0]} was still ${open[1].state}: one intended change, one operationId`;
      }
      states.set(e.operationId, { key, state: e.to });
    }
  }
  return undefined;
}

function describeStatus(status: { httpStatus: number; body: Record<string, unknown> }): string {
  const body = status.body;
  if (body.status === "rejected") {
    const { code, reason } = errorOf(body);
    return `rejected ${code ?? ""}${reason ? ` ${reason}` : ""}`;
  }
  return typeof body.status === "string" ? body.status : `HTTP ${status.httpStatus} ${errorOf(body).code ?? ""}`.trim();
}
