#!/usr/bin/env node
import { App } from "aws-cdk-lib";
import { deployGate } from "#catalog/deploy-gate";
import { buildOrderTools } from "#lib/app";
import { addEvalGate } from "#lib/eval-gate";

// Context (`-c key=value`): stage, production, deletionProtection, logLevel, hourlyCap, supportHourlyCap,
// sellerHourlyCap, requestBudget, jwtIssuer + jwtAudience, authCallbackUrls + staffAuthCallbackUrls +
// sellerAuthCallbackUrls (required in production), and
// the rest listed in lib/config.ts and docs/deploy.md. `evalGateOverride="<name>: <reason>"` lets the service's
// owners deploy tool definitions that no model run has measured (README, "What the gate blocks").
const app = new App();
const { api } = buildOrderTools(app);
addEvalGate(api, deployGate({ override: app.node.tryGetContext("evalGateOverride") }));
app.synth();
