import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { App, RemovalPolicy, Stack } from "aws-cdk-lib";
import { RetentionDays } from "aws-cdk-lib/aws-logs";
import type { TracerSetting } from "#lib/config";
import { ToolFunction } from "#lib/tool-function";

/** The bundle budget: each bundled function stays within 250 KB minified (the source map, shipped beside it, not counted). */
export const bundleBudgetBytes = 250 * 1024;

export interface Bundle {
  /** The function's description: `order-tools <tool>` for tools. */
  name: string;
  logicalId: string;
  file: string;
  bytes: number;
}

interface TemplateJson {
  Resources?: Record<string, { Type: string; Properties?: { Code?: { S3Key?: string }; Description?: string } }>;
}

/** The bundled `index.mjs` of every Lambda function in a synthesized template, found through its asset hash. */
export function bundlesOf(assemblyDir: string, template: TemplateJson): Bundle[] {
  return Object.entries(template.Resources ?? {})
    .filter(([, r]) => r.Type === "AWS::Lambda::Function")
    .map(([logicalId, r]) => {
      const key = String(r.Properties?.Code?.S3Key ?? "");
      const hash = key.replace(/\.zip$/, "");
      const file = join(assemblyDir, `asset.${hash}`, "index.mjs");
      if (!hash || !existsSync(file)) {
        throw new Error(`No bundle for ${logicalId} at ${file}: was the app synthesized with bundling?`);
      }
      return { name: String(r.Properties?.Description ?? logicalId), logicalId, file, bytes: statSync(file).size };
    });
}

/**
 * Bundles arbitrary entries exactly as the stacks bundle their functions (same ToolFunction construct, same
 * esbuild options), for benchmarks that need a bundle the app does not deploy, such as a bare-client baseline.
 */
export function bundleEntries(entries: ReadonlyArray<{ name: string; entry: string; tracer?: TracerSetting }>, outdir: string): Bundle[] {
  const app = new App({ outdir, builtinCloudFormationValidation: false });
  const stack = new Stack(app, "BundleProbe");
  entries.forEach(({ name, entry, tracer }, i) => {
    new ToolFunction(stack, `Probe${i}`, {
      entry,
      description: name,
      ...(tracer ? { tracer } : {}),
      logLevel: "INFO",
      logRetention: RetentionDays.ONE_DAY,
      logRemovalPolicy: RemovalPolicy.DESTROY,
    });
  });
  const assembly = app.synth();
  return bundlesOf(assembly.directory, assembly.getStackByName(stack.stackName).template);
}
