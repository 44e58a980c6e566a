/**
 * `npm run events` writes `events/` from local/event-cases.ts: one API Gateway v2 event per case and a
 * README listing them; stale files are removed. `npm run events -- --check` only compares, and fails if
 * `events/` is not what the cases make (or a tool in the registry has no valid and invalid event).
 */
import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { eventsDir, missingEventsMessage, renderEvents, toolsMissingEvents } from "#local/event-cases";

async function main(): Promise<number> {
  const check = process.argv.includes("--check");
  const wanted = renderEvents();
  await mkdir(eventsDir, { recursive: true });
  const present = (await readdir(eventsDir)).filter((f) => f.endsWith(".json") || f === "README.md");
  const differing: string[] = [];
  for (const [file, text] of wanted) {
    const current = await readFile(join(eventsDir, file), "utf8").catch(() => undefined);
    if (current === text) continue;
    differing.push(file);
    if (!check) await writeFile(join(eventsDir, file), text);
  }
  const stale = present.filter((f) => !wanted.has(f));
  if (!check) await Promise.all(stale.map((f) => rm(join(eventsDir, f))));
  const missing = toolsMissingEvents();
  if (missing.length > 0) console.error(missingEventsMessage(missing));
  if (check) {
    if (differing.length + stale.length > 0) {
      console.error(`events/ is out of date (${[...differing, ...stale].join(", ")}); run \`npm run events\`.`);
      return 1;
    }
    console.log(`events/ is up to date: ${wanted.size - 1} events.`);
    return missing.length > 0 ? 1 : 0;
  }
  console.log(`Wrote ${differing.length} of ${wanted.size} files in events/${stale.length ? `, removed ${stale.join(", ")}` : ""}.`);
  return missing.length > 0 ? 1 : 0;
}

main().then((code) => process.exit(code));
