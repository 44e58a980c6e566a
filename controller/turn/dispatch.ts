import type { ModelTool } from "#contract/model-tools";
import { type ChangePathDeps, changePath } from "#controller/changes/change-path";
import type { ToolCall } from "#controller/model/types";
import { checkProposal, type Proposal } from "#controller/changes/proposal";
import { type ReadPathDeps, readPath } from "#controller/turn/read-path";
import type { Run, ToolResult, DispatchContext } from "#controller/state/run";

/**
 * One tool call of the model, in its steps: validated with the very schemas the service validates with
 * (changes/proposal.ts), then a read takes the read path (turn/read-path.ts) and a change the change path (changes/change-path.ts).
 */
export interface DispatchDeps extends ReadPathDeps, ChangePathDeps {
  tools: readonly ModelTool[];
}

export async function dispatch(deps: DispatchDeps, turn: DispatchContext, call: ToolCall): Promise<ToolResult> {
  const proposal = checkProposal(call, deps.tools);
  if (proposal.kind === "unknown_tool" || proposal.kind === "invalid") return refuse(call, proposal, turn.run);
  turn.run.recorder.add({ type: "validation", toolUseId: call.id, tool: proposal.tool, decision: "accepted" });
  return proposal.kind === "read" ? readPath(deps, turn, proposal) : changePath(deps, turn, call, proposal);
}

/** An unknown tool or invalid arguments: nothing is sent, and the model gets the very body the service would send. */
function refuse(call: ToolCall, proposal: Extract<Proposal, { kind: "unknown_tool" | "invalid" }>, run: Run): ToolResult {
  run.recorder.add({
    type: "validation",
    toolUseId: call.id,
    tool: proposal.kind === "invalid" ? proposal.tool : call.name,
    decision: proposal.kind === "invalid" ? "invalid_input" : "unknown_tool",
    body: proposal.body,
  });
  // Same error class, same serialisation.
  return { content: JSON.stringify(proposal.body), isError: true };
}
