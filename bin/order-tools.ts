#!/usr/bin/env node
import { App } from "aws-cdk-lib";
import { buildOrderTools } from "#lib/app";

// Context (`-c key=value`): stage, production, deletionProtection, logLevel, hourlyCap, supportHourlyCap,
// requestBudget, jwtIssuer + jwtAudience, authCallbackUrls + staffAuthCallbackUrls (required in production), and
// the rest listed in lib/config.ts and docs/deploy.md.
const app = new App();
buildOrderTools(app);
app.synth();
