#!/usr/bin/env node
import { App } from "aws-cdk-lib";
import { deployGate } from "#lib/deploy-gate";
import { buildOrderTools } from "#lib/app";
import { withoutBundlingProgress } from "#lib/bundling-progress";
import { addEvalGate } from "#lib/eval-gate";

// Context (`-c key=value`): stage, production, deletionProtection, logLevel, hourlyCap, supportHourlyCap,
// sellerHourlyCap, requestBudget, jwtIssuer + jwtAudience, authCallbackUrls + staffAuthCallbackUrls +
// sellerAuthCallbackUrls (required in production), and
// the rest listed in lib/config.ts and docs/deploy.md. `evalGateOverride="<name>: <reason>"` lets the service's
// owners deploy tool definitions that no model run has measured (docs/eval.md, "What the gate blocks").
const app = new App();
// Without a "Bundling asset …" line per function (aws-cdk-lib prints them even under --quiet); esbuild's warnings
// and errors still show.
withoutBundlingProgress(() => {
  const { api } = buildOrderTools(app);
  addEvalGate(api, deployGate({ override: app.node.tryGetContext("evalGateOverride") }));
  app.synth();
});
