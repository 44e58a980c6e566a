import { readdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { parseArgs } from "node:util";
import type { TurnTrace } from "#controller/trace";
import { formatTrace } from "#controller/trace-format";

/**
 * `order-tools-trace <file|dir>…` (the package's bin; `npm run trace --` in this repository): the traces
 * `traceDirectory(dir)` wrote, one turn per JSON file, printed as the compact view `formatTrace` makes — a
 * directory's turns by conversation, then in turn order. `--trace <id>` picks the turn with that trace id, and
 * any later turn that sent or declined a change it held (a held change is sent in the turn that confirms it, so
 * the service logs its call under that turn's trace id). `--conversation <id>` picks one conversation.
 */
export const traceUsage = `Usage: order-tools-trace <file|dir>… [--trace <traceId>] [--conversation <id>]

  <file>              one turn's trace, as traceDirectory(dir) writes it (<conversation>.<turn>.json)
  <dir>               every trace in it, by conversation, in turn order
  --trace 1-…         the turn with this trace id, and the turns that sent or declined a change it held
  --conversation c-1  only this conversation's turns`;

export interface TraceCommandIo {
  out(text: string): void;
  err(text: string): void;
}

/** Runs the command; resolves with its exit code (0, or 1 with what was wrong on `err`). */
export async function traceCommand(argv: readonly string[], io: TraceCommandIo): Promise<number> {
  let parsed: ReturnType<typeof parseOptions>;
  try {
    parsed = parseOptions(argv);
  } catch (error) {
    io.err(`${(error as Error).message}\n\n${traceUsage}`);
    return 1;
  }
  if (parsed.values.help) {
    io.out(traceUsage);
    return 0;
  }
  if (parsed.positionals.length === 0) {
    io.err(`Give a trace file or a directory of them.\n\n${traceUsage}`);
    return 1;
  }
  let traces: Loaded[];
  try {
    traces = (await Promise.all(parsed.positionals.map(load))).flat();
  } catch (error) {
    io.err((error as Error).message);
    return 1;
  }
  const { trace: traceId, conversation } = parsed.values;
  const chosen = traces
    .filter((t) => conversation === undefined || t.trace.conversationId === conversation)
    .filter((t) => traceId === undefined || t.trace.traceId === traceId || heldIn(t.trace).includes(traceId))
    .sort(byConversationAndTurn);
  if (chosen.length === 0) {
    const wanted = [traceId && `trace ${traceId}`, conversation && `conversation ${conversation}`].filter(Boolean).join(" and ");
    io.err(
      `No turn ${wanted ? `of ${wanted} ` : ""}in ${parsed.positionals.join(", ")} (${traces.length} trace${traces.length === 1 ? "" : "s"} read).`,
    );
    return 1;
  }
  io.out(chosen.map(({ trace }) => `${heading(trace)}\n${formatTrace(trace)}`).join("\n\n"));
  return 0;
}

function parseOptions(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: { trace: { type: "string" }, conversation: { type: "string" }, help: { type: "boolean", short: "h" } },
  });
}

interface Loaded {
  file: string;
  trace: TurnTrace;
}

/** A file's trace, or every trace in a directory (its *.json files). */
async function load(path: string): Promise<Loaded[]> {
  const info = await stat(path).catch(() => undefined);
  if (!info) throw new Error(`${path}: no such file or directory.`);
  if (!info.isDirectory()) return [await loadFile(path)];
  const files = (await readdir(path)).filter((name) => name.endsWith(".json")).sort();
  if (files.length === 0) throw new Error(`${path} holds no trace files (*.json): traceDirectory(dir) writes one per turn there.`);
  return Promise.all(files.map((name) => loadFile(join(path, name))));
}

async function loadFile(file: string): Promise<Loaded> {
  let value: unknown;
  try {
    value = JSON.parse(await readFile(file, "utf8"));
  } catch (error) {
    throw new Error(`${file} is not a trace: ${(error as Error).message}.`);
  }
  const trace = value as Partial<TurnTrace> | null;
  if (
    trace === null ||
    typeof trace !== "object" ||
    typeof trace.conversationId !== "string" ||
    typeof trace.turn !== "number" ||
    typeof trace.traceId !== "string" ||
    !Array.isArray(trace.events)
  )
    throw new Error(
      `${file} is not a turn's trace: one is the JSON traceDirectory(dir) writes, with conversationId, turn, traceId and events.`,
    );
  return { file, trace: trace as TurnTrace };
}

/** The trace ids of the turns that held the changes this turn sent or declined. */
function heldIn(trace: TurnTrace): string[] {
  return trace.events.flatMap((e) => (e.type === "intent" && e.heldIn?.traceId ? [e.heldIn.traceId] : []));
}

function byConversationAndTurn(a: Loaded, b: Loaded): number {
  return (
    a.trace.conversationId.localeCompare(b.trace.conversationId) ||
    a.trace.turn - b.trace.turn ||
    a.trace.startedAt.localeCompare(b.trace.startedAt)
  );
}

function heading(trace: TurnTrace): string {
  const what = trace.kind === "resume" ? "resume" : `turn ${trace.turn}`;
  const flags = trace.flags.length > 0 ? `  [${trace.flags.join(", ")}]` : "";
  return `${trace.conversationId} · ${what} · trace ${trace.traceId} · ${trace.startedAt} · ${trace.durationMs} ms · ${trace.model}${flags}`;
}
