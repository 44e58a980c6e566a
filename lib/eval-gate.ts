import { Annotations, CfnRule, Fn, type Stack } from "aws-cdk-lib";
import type { GateDecision } from "#lib/deploy-gate";

/** CloudFormation keeps an assertion's description to this many characters. */
const maxDescription = 1024;

/**
 * The eval gate at deploy time. The CDK app cannot tell `cdk synth` from `cdk deploy`, so the refusal is put
 * where only a deployment meets it: a template rule whose assertion cannot hold, which CloudFormation checks
 * before it changes anything, and whose description (naming the command to run) is what `cdk deploy` prints.
 * `cdk synth` and the tests still work offline; synth warns. Nothing is added when the gate lets the tools through
 * (the baseline measured these tool definitions, or the service owners overrode it, which is printed).
 */
export function addEvalGate(stack: Stack, decision: GateDecision): void {
  if (decision.ok) {
    if (decision.status.state !== "current") Annotations.of(stack).addWarningV2("order-tools:evalGateOverridden", decision.message);
    return;
  }
  Annotations.of(stack).addWarningV2(
    "order-tools:evalGate",
    `${decision.message}\ncdk deploy of ${stack.stackName} will be refused by CloudFormation (rule EvalGate).`,
  );
  new CfnRule(stack, "EvalGate", {
    assertions: [
      {
        // Always false: the tools' eval baseline is not current. The description says why and what to run.
        assert: Fn.conditionEquals("eval-baseline-not-current", "eval-baseline-current"),
        assertDescription: decision.message.replaceAll("\n", " ").slice(0, maxDescription),
      },
    ],
  });
}
