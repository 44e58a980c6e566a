#!/usr/bin/env node
import { App } from "aws-cdk-lib";
import { buildOrderTools } from "#lib/app";

// Context (`-c key=value`): stage, production, deletionProtection, logLevel, hourlyCap, supportHourlyCap,
// requestBudget, jwtIssuer + jwtAudience, authCallbackUrls + staffAuthCallbackUrls and alarmEmail or alarmTopicArn
// (required in production), customerManagedKey, mcpAllowedOrigins, publicUrl, the log retentions, and the rest
// listed in lib/config.ts and docs/deploy.md. The synth also runs cdk-nag and AWS Control Tower's proactive controls.
const app = new App();
buildOrderTools(app);
app.synth();
