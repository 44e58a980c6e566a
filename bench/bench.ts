/**
 * `npm run bench`: the figures behind the design, printed section by section (docs/benchmarks.md keeps the
 * latest). Every section that needs DynamoDB runs against the one DynamoDB Local this run starts, on tables of
 * its own, so the comparisons within and across sections meet the same JVM.
 * Options: `usage` below, or `npm run bench -- --help`.
 */
import "#bench/support/setup";
import { execFileSync } from "node:child_process";
import { cpus, loadavg } from "node:os";
import { benchApiShaped } from "#bench/sections/peer-api-shaped";
import { benchBundles } from "#bench/sections/bundle-sizes";
import { benchCapacity } from "#bench/sections/capacity";
import { benchChanges } from "#bench/sections/changes";
import { benchController } from "#bench/sections/controller-cost";
import { benchGate } from "#bench/sections/gate-cost";
import { benchMessageReading } from "#bench/sections/message-reading";
import { benchInitProfile } from "#bench/sections/init-profile";
import { benchReadThenWrite } from "#bench/sections/peer-read-then-write";
import { benchReads } from "#bench/sections/reads";
import { benchScaling } from "#bench/sections/scaling";
import { benchTokens } from "#bench/sections/token-counts";
import { droppedHandlerLines } from "#bench/support/setup";
import type { Endpoint } from "#bench/support/bench-world";
import { type DynamoDbLocal, startDynamoDbLocal } from "#local/dynamodb-local";

const usage = `Usage: npm run bench -- [--only <section>[,<section>…]] [--calls N] [--trials N] [--runs N] [--smoke]
  --only    run these sections: reads, changes, peer1, capacity, peer2, tokens, scaling, controller, gate, message, bundles, init-profile
  --calls   calls per measured series (≥ 200, default 300)
  --trials  race interleavings and crash-window trials per design (≥ 50, default 100)
  --runs    rounds of cold imports per bundle (≥ 3, default 9)
  --smoke   toy sizes, to check that the bench works (figures mean nothing; charts not written)`;

/** Bad options: what was wrong and how to ask, and exit 2 before anything starts. */
function refuse(message: string): never {
  console.error(`${message}\n\n${usage}`);
  process.exit(2);
}

const args = process.argv.slice(2);
if (args.includes("--help") || args.includes("-h")) {
  console.log(usage);
  process.exit(0);
}
const valued = ["--only", "--calls", "--trials", "--runs"];
for (const [i, arg] of args.entries()) {
  if (arg.startsWith("-") && ![...valued, "--smoke"].includes(arg)) refuse(`Unknown option ${arg}.`);
  if (valued.includes(arg) && (args[i + 1] === undefined || args[i + 1]!.startsWith("-"))) refuse(`${arg} needs a value.`);
  if (!arg.startsWith("-") && !valued.includes(args[i - 1] ?? "")) refuse(`Unexpected argument ${arg}.`);
}
const option = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const smoke = args.includes("--smoke");
function count(name: string, fallback: number, least: number): number {
  const raw = option(name);
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < least) refuse(`${name} takes a whole number of at least ${least}, not ${raw ?? "nothing"}.`);
  return n;
}
const calls = smoke ? 20 : count("--calls", 300, 200);
const trials = smoke ? 10 : count("--trials", 100, 50);
const runs = smoke ? 2 : count("--runs", 9, 3);

let dynamo: Promise<DynamoDbLocal> | undefined;
/** The run's DynamoDB Local, started by the first section that needs it. */
const endpoint: Endpoint = async () => {
  dynamo ??= startDynamoDbLocal();
  return (await dynamo).endpoint;
};

interface Section {
  name: string;
  title: string;
  /** Whether it uses the run's DynamoDB Local (stopped once no section left to run needs it: an idle JVM still disturbs cold-start timings). */
  dynamo: boolean;
  run: () => Promise<void>;
}

const sections: Section[] = [
  {
    name: "reads",
    dynamo: true,
    title: "Reads: get_order and search_orders through their handlers, against a plain read of one order",
    run: () => benchReads({ calls, endpoint }),
  },
  {
    name: "changes",
    dynamo: true,
    title: "Changing tools through the local gateway, against the raw DynamoDB requests each makes",
    run: () => benchChanges({ calls, endpoint }),
  },
  {
    name: "peer1",
    dynamo: true,
    title: "Peer 1: the read-then-write design (Powertools makeIdempotent, checks in code, a version-conditioned write)",
    run: () => benchReadThenWrite({ calls, trials, endpoint }),
  },
  {
    name: "capacity",
    dynamo: true,
    title: "Capacity units per call of every tool and of peer 1, and what a million calls cost",
    run: () => benchCapacity({ calls: smoke ? 3 : Math.max(20, Math.round(calls / 10)), endpoint }),
  },
  {
    name: "peer2",
    dynamo: true,
    title: "Peer 2: get_order against six API-shaped reads an agent chains",
    run: () => benchApiShaped({ calls, endpoint }),
  },
  {
    name: "tokens",
    dynamo: true,
    title: "Tokens: get_order and search_orders against the raw stored orders and peer 2",
    run: () => benchTokens({ ...(smoke ? { orders: 60 } : {}), endpoint }),
  },
  {
    name: "scaling",
    dynamo: true,
    title: "Scaling: get_order by items (1–50), search_orders by the customer's orders (1–1,000)",
    run: () => benchScaling({ calls: Math.round(calls / 3), writeCharts: !smoke, endpoint }),
  },
  {
    name: "controller",
    dynamo: false,
    title: "The controller's added latency per change, against the raw call (its own DynamoDB Local and gateway)",
    run: () => benchController({ calls: smoke ? 100 : calls }),
  },
  {
    name: "gate",
    dynamo: false,
    title: "The response gate per reply, by the reply's raw length and the record's size (the generated reply corpus)",
    run: () => benchGate({ rounds: smoke ? 3 : 30 }),
  },
  {
    name: "message",
    dynamo: false,
    title: "Reading a principal's message, by its length, up to the bound and past it",
    run: () => benchMessageReading({ rounds: smoke ? 3 : 10 }),
  },
  {
    name: "bundles",
    dynamo: false,
    title: "Cold start: bundle size and module init per function, against a bare DocumentClient",
    run: () => benchBundles({ runs }),
  },
  {
    name: "init-profile",
    dynamo: false,
    title: "Cold start: where module init goes (layers, bundle composition, CPU profile)",
    run: () => benchInitProfile({ runs }),
  },
];

const only = option("--only")
  ?.split(",")
  .map((s) => s.trim());
const unknownSections = (only ?? []).filter((name) => !sections.some((s) => s.name === name));
if (unknownSections.length > 0)
  refuse(`No section ${unknownSections.join(", ")}; the sections are ${sections.map((s) => s.name).join(", ")}.`);
const chosen = only ? sections.filter((s) => only.includes(s.name)) : sections;

const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");
const commit = (() => {
  try {
    return execFileSync("git", ["rev-parse", "--short", "HEAD"], { encoding: "utf8" }).trim();
  } catch {
    return "unknown";
  }
})();
console.log(`npm run bench${args.length ? ` -- ${args.join(" ")}` : ""}: ${new Date().toISOString()}, commit ${commit}`);
console.log(
  `node ${process.version} on ${process.platform}/${process.arch}, ${cpus().length} × ${cpus()[0]?.model.trim() ?? "unknown CPU"}; load average ${load()}`,
);
if (smoke) console.log("--smoke: toy sizes; the figures below check that the bench works and mean nothing.");

let failed = false;
const stopDynamo = async () => {
  const running = dynamo;
  dynamo = undefined;
  if (running) await (await running).stop();
};
try {
  for (const [i, section] of chosen.entries()) {
    if (!chosen.slice(i).some((s) => s.dynamo)) await stopDynamo();
    console.log(`\n== ${section.title} [${section.name}]\n`);
    const started = performance.now();
    try {
      await section.run();
    } catch (error) {
      failed = true;
      console.error(`Section ${section.name} failed: ${(error as Error).stack ?? String(error)}`);
    }
    console.log(`\n(${section.name}: ${((performance.now() - started) / 1000).toFixed(0)} s; load average now ${load()})`);
  }
} finally {
  await stopDynamo();
}
console.log(`\nDone. The handlers' own log and metric lines (${droppedHandlerLines}) were written and kept off this output.`);
process.exitCode = failed ? 1 : 0;
