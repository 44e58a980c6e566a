/**
 * `npm run --silent export-tools -- --format <format> [--out <dir>]`: the model-facing tool definitions (contract §8.1),
 * generated from the registry, in a provider's format. Without --out the JSON goes to stdout. Formats are
 * registered in controller/platforms/formats.ts; a new one needs only `registerToolFormat`.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { readOptions } from "#local/command-line";
import { toolFormat, toolFormatNames } from "#controller/platforms/formats";
import { controllerOnlyTools, modelTools } from "#contract/model-tools";
import { userPath } from "#local/stack";

function usage(): string {
  const formats = toolFormatNames().map((name) => `  ${name.padEnd(22)}${toolFormat(name).summary}`);
  return `Usage: npm run --silent export-tools -- --format <format> [--out <dir>]

Writes the ${modelTools().length} tools a model may propose: every tool but ${controllerOnlyTools.join(", ")}, whose only
argument is an operationId: the application makes operationIds and reconciles lost answers itself. Without
--silent, npm prints its own banner to stdout before the JSON.

Formats:
${formats.join("\n")}

  --out <dir>   write <dir>/<format file> (created if missing) instead of printing to stdout`;
}

const { values, refuse } = readOptions(usage(), { format: { type: "string" }, out: { type: "string" } });
// Declared, so that TypeScript narrows after a call of it.
const fail: (message: string) => never = refuse;
if (values.format === undefined) fail("Give --format.");
if (!toolFormatNames().includes(values.format))
  fail(`There is no format ${JSON.stringify(values.format)}; the formats are ${toolFormatNames().join(", ")}.`);

const format = toolFormat(values.format);
const text = `${JSON.stringify(format.document(modelTools()), null, 2)}\n`;
if (values.out === undefined) {
  process.stdout.write(text);
} else {
  const dir = userPath(values.out);
  await mkdir(dir, { recursive: true });
  const file = join(dir, format.fileName);
  await writeFile(file, text);
  console.log(
    `Wrote ${modelTools().length} tools in the ${format.name} format to ${file} (${controllerOnlyTools.join(", ")} is the application's own).`,
  );
}
