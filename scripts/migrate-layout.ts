/**
 * `npm run migrate-layout -- --table <orders table>`: moves an orders table written by the previous layout (each
 * order one item, its history in `ACTIVITY#` items) to the present one, in place and while the service runs
 * (lib/layout-migration.ts; when to run it in a deploy: docs/deploy.md, "Moving a table to the split
 * order layout"). It scans the table in segments and writes where it got to after every page to a progress file;
 * run again with the same file, it goes on from there, and once done it does nothing. Every step is idempotent,
 * so a run from the start (without the file) is safe too.
 */
import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { DynamoDBClient, type DynamoDBClientConfig } from "@aws-sdk/client-dynamodb";
import { readOptions } from "#local/command-line";
import { localClientConfig } from "#local/create-tables";
import { documentClient } from "#store/client";
import { type MigrationCounts, migrateLayout, type ScanProgress } from "#lib/layout-migration";

const usage = `Usage: npm run migrate-layout -- --table <name> [--segments N] [--progress <file>] [--endpoint <url>]

  --table      the orders table (the Data stack's Orders… table; see docs/operations.md, "Names you need")
  --segments   parallel scan segments, 1 or more (default 4); going on from a progress file takes its number
  --progress   where to keep the progress (default migrate-layout-<table>.json); with a file from an earlier run,
               the scan goes on where that run stopped
  --endpoint   a DynamoDB endpoint other than AWS's (DynamoDB Local: http://127.0.0.1:8000)

AWS credentials and region come from the environment, as for the AWS CLI (AWS_PROFILE, AWS_REGION, …).`;

interface ProgressFile {
  table: string;
  segments: number;
  progress: ScanProgress;
  counts: MigrationCounts;
}

async function main(): Promise<number> {
  const { values, refuse } = readOptions(usage, {
    table: { type: "string" },
    segments: { type: "string" },
    progress: { type: "string" },
    endpoint: { type: "string" },
  });
  const table = values.table ?? refuse("Name the orders table with --table.");
  const file = values.progress ?? `migrate-layout-${table}.json`;
  const saved = existsSync(file) ? (JSON.parse(await readFile(file, "utf8")) as ProgressFile) : undefined;
  if (saved && saved.table !== table)
    refuse(`${file} is the progress of table ${saved.table}, not ${table}: name another --progress file.`);
  const segments = values.segments === undefined ? (saved?.segments ?? 4) : Number(values.segments);
  if (!Number.isInteger(segments) || segments < 1) refuse(`--segments takes a whole number of at least 1, not ${values.segments}.`);
  if (saved && saved.segments !== segments)
    refuse(`${file} was made with ${saved.segments} segments: go on with --segments ${saved.segments}, or delete it to start again.`);

  const config: DynamoDBClientConfig = values.endpoint ? localClientConfig(values.endpoint) : {};
  const client = new DynamoDBClient(config);
  const started = Date.now();
  let pages = 0;
  try {
    if (saved) console.log(`Going on from ${file}: ${describe(saved.counts)} so far.`);
    const counts = await migrateLayout(
      { doc: documentClient(client), tables: { orders: table, idempotency: "" }, now: () => new Date(), clientConfig: config },
      {
        segments,
        ...(saved ? { progress: saved.progress } : {}),
        onProgress: async (progress, counts) => {
          const total = saved ? add(saved.counts, counts) : counts;
          await writeFile(file, `${JSON.stringify({ table, segments, progress, counts: total } satisfies ProgressFile, null, 2)}\n`);
          if (++pages % 50 === 0) console.log(`${describe(total)} (${Math.round((Date.now() - started) / 1000)} s)`);
        },
      },
    );
    console.log(
      `Done: ${describe(saved ? add(saved.counts, counts) : counts)}. Progress kept in ${file}; delete it to scan again from the start.`,
    );
  } finally {
    client.destroy();
  }
  return 0;
}

const add = (a: MigrationCounts, b: MigrationCounts): MigrationCounts => ({
  orders: a.orders + b.orders,
  split: a.split + b.split,
  linked: a.linked + b.linked,
  retried: a.retried + b.retried,
});

const describe = (c: MigrationCounts) =>
  `${c.orders} orders looked at, ${c.split} split, ${c.linked} with their earlier history linked, ${c.retried} read again after a change landed`;

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error((error as Error).message);
    process.exit(1);
  },
);
