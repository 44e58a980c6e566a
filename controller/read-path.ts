import type { PrincipalKind } from "#contract/model-context";
import type { ToolName } from "#contract/tools";
import { forModel } from "#controller/context/taint";
import { noteForeign, noteReadResult } from "#controller/conversation-state";
import type { Exchange, ServiceClient } from "#controller/http/service-client";
import { deadlineOf, exchangeListener, say, type ToolResult, type Turn } from "#controller/run";

/**
 * The read path: a read the model proposed is sent at once (it changes nothing), what it shows of the orders is
 * remembered for the guards, any text in it the principal did not write taints the conversation (contract §8.5),
 * and the model gets the result spotlighted: foreign text marked as data, never as instructions.
 */
export interface ReadPathDeps {
  client: ServiceClient;
  principal: PrincipalKind;
}

export interface ReadProposal {
  tool: ToolName;
  input: Record<string, unknown>;
}

export async function readPath(deps: ReadPathDeps, turn: Turn, proposal: ReadProposal): Promise<ToolResult> {
  const { run } = turn;
  run.progress(
    proposal.tool === "search_orders"
      ? say(run, "progressSearching")
      : say(run, "progressReading", { orderId: String(proposal.input.orderId) }),
  );
  const exchange = await deps.client.call(proposal.tool, proposal.input, exchangeListener(undefined, run), deadlineOf(run));
  if (exchange.kind === "failure" || exchange.status >= 500 || exchange.body === undefined) return unanswered(exchange);
  if (exchange.status === 200) noteReadResult(turn.state, proposal.tool, proposal.input, exchange.body, turn.message);
  // Every string of the answer placed (context/taint.ts): foreign text datamarked, and the conversation tainted.
  const { body, foreign } = forModel(exchange.body, deps.principal);
  const what = `${proposal.tool} ${String(proposal.input.orderId ?? proposal.input.email ?? "search")}`;
  const sources = noteForeign(turn.state, what, foreign);
  if (sources.length > 0) turn.run.recorder.add({ type: "taint", tool: proposal.tool, sources });
  return { content: JSON.stringify(body), isError: exchange.status !== 200 };
}

/** The service did not answer: the model is told nothing was read, and may try again. */
function unanswered(exchange: Exchange): ToolResult {
  const why = exchange.kind === "failure" ? exchange.failure : `HTTP ${exchange.status}`;
  return {
    content: JSON.stringify({
      error: {
        code: "SERVICE_UNAVAILABLE",
        message: `The order service did not answer (${why}); nothing was read. Try again.`,
        retryable: true,
      },
    }),
    isError: true,
  };
}
