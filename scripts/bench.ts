/**
 * `npm run bench`: the figures behind the design, printed section by section. Each section starts and stops
 * whatever it needs (the read section its own DynamoDB Local, stopped again on error too).
 * Options: `--calls N` calls per measured series (≥ 200, default 300); `--only <section>` runs one section.
 */
import { benchBundles } from "#scripts/bench-bundles";
import { benchReads } from "#scripts/bench-reads";

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";
// The handlers log only failures; keep the benchmark's output to its figures.
process.env.POWERTOOLS_LOG_LEVEL ??= "ERROR";

const args = process.argv.slice(2);
const option = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const calls = option("--calls") === undefined ? undefined : Number(option("--calls"));
if (calls !== undefined && (!Number.isInteger(calls) || calls < 200)) throw new Error("--calls takes a whole number of at least 200");

interface Section {
  name: string;
  title: string;
  run: () => Promise<void>;
}

const sections: Section[] = [
  { name: "reads", title: "Reads: get_order and search_orders through their handlers, against DynamoDB Local", run: () => benchReads({ ...(calls ? { calls } : {}) }) },
  { name: "bundles", title: "Bundles: size and cold module init per function, against a bare DocumentClient", run: () => benchBundles() },
];

const only = option("--only");
const chosen = only ? sections.filter((s) => s.name === only) : sections;
if (chosen.length === 0) throw new Error(`No section ${only}; the sections are ${sections.map((s) => s.name).join(", ")}.`);

let failed = false;
for (const section of chosen) {
  console.log(`\n== ${section.title}\n`);
  try {
    await section.run();
  } catch (error) {
    failed = true;
    console.error(`Section ${section.name} failed: ${(error as Error).stack ?? String(error)}`);
  }
}
process.exitCode = failed ? 1 : 0;
