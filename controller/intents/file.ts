import { type FileHandle, mkdir, open, readFile, truncate } from "node:fs/promises";
import { dirname } from "node:path";
import type { Intent } from "#controller/intents/intent";
import { checkRevision, ProcessIntentStore } from "#controller/intents/store";

/** What loading found at the end of the file: a line cut short by a crash mid-write, and dropped. */
export interface TornTail {
  bytes: number;
  text: string;
}

/**
 * Intents in an append-only JSON-lines file: every write appends the whole intent as one line and fsyncs
 * before `save` returns, so a persisted intent survives a crash the moment the controller moves on. On load
 * the last revision of each intent wins. A crash mid-write leaves at most the last line torn (no newline, or
 * not JSON): it is ignored and cut off, so the next append starts on a clean line. A bad line anywhere else is
 * not a torn write but damage, and loading fails naming the line.
 *
 * One process writes a file at a time; a restarted process opens the same file and carries on. Turn leases
 * are therefore kept in the process (they serialise the controllers that share this store in it).
 */
export class FileIntentStore extends ProcessIntentStore {
  private loaded: Promise<{ intents: Map<string, Intent>; handle: FileHandle }> | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  /** Set by load when it dropped a torn last line. */
  tornTail: TornTail | undefined;

  constructor(readonly path: string) {
    super();
  }

  /** Loads the file now (otherwise the first call does): a damaged file fails here, before any turn. */
  async open(): Promise<this> {
    await this.load();
    return this;
  }

  async save(intent: Intent): Promise<void> {
    await this.serially(async () => {
      const { intents, handle } = await this.load();
      checkRevision(intent, intents.get(intent.operationId));
      await handle.appendFile(`${JSON.stringify(intent)}\n`, "utf8");
      await handle.sync();
      intents.set(intent.operationId, structuredClone(intent));
    });
  }

  protected async held(): Promise<Map<string, Intent>> {
    return (await this.load()).intents;
  }

  async close(): Promise<void> {
    const loaded = this.loaded;
    this.loaded = undefined;
    if (loaded) await (await loaded).handle.close();
  }

  private serially<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work, work);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private load() {
    this.loaded ??= this.read();
    return this.loaded;
  }

  private async read(): Promise<{ intents: Map<string, Intent>; handle: FileHandle }> {
    let bytes: Buffer;
    try {
      bytes = await readFile(this.path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
      bytes = Buffer.alloc(0);
    }
    const intents = new Map<string, Intent>();
    const lines = splitLines(bytes);
    let keepBytes = bytes.length;
    for (const [index, line] of lines.entries()) {
      const last = index === lines.length - 1;
      const intent = line.complete ? parseIntent(line.text) : undefined;
      if (intent === undefined) {
        if (!last) {
          throw new Error(
            `${this.path} line ${index + 1} is not an intent (${describe(line.text)}); only the last line can be torn by a crash, so this file is damaged. Move it aside to start afresh.`,
          );
        }
        this.tornTail = { bytes: bytes.length - line.start, text: line.text };
        keepBytes = line.start;
        break;
      }
      intents.set(intent.operationId, intent);
    }
    if (keepBytes < bytes.length) await truncate(this.path, keepBytes);
    const created = bytes.length === 0;
    await mkdir(dirname(this.path), { recursive: true });
    const handle = await open(this.path, "a");
    // A new file's name must survive a crash too, not only its contents.
    if (created) await syncDirectory(dirname(this.path));
    return { intents, handle };
  }
}

interface Line {
  text: string;
  start: number;
  complete: boolean;
}

function splitLines(bytes: Buffer): Line[] {
  const lines: Line[] = [];
  let start = 0;
  while (start < bytes.length) {
    const end = bytes.indexOf(0x0a, start);
    if (end === -1) {
      lines.push({ text: bytes.subarray(start).toString("utf8"), start, complete: false });
      break;
    }
    const text = bytes.subarray(start, end).toString("utf8");
    if (text.trim() !== "") lines.push({ text, start, complete: true });
    start = end + 1;
  }
  return lines;
}

function parseIntent(text: string): Intent | undefined {
  try {
    const value = JSON.parse(text) as Partial<Intent> | null;
    if (value === null || typeof value !== "object") return undefined;
    if (
      typeof value.operationId !== "string" ||
      typeof value.conversationId !== "string" ||
      typeof value.revision !== "number" ||
      typeof value.state !== "string"
    )
      return undefined;
    return value as Intent;
  } catch {
    return undefined;
  }
}

function describe(text: string): string {
  return text.length > 60 ? `${JSON.stringify(text.slice(0, 60))}…` : JSON.stringify(text);
}

async function syncDirectory(path: string): Promise<void> {
  const dir = await open(path, "r");
  try {
    await dir.sync();
  } catch {
    // Some platforms cannot fsync a directory; the file's own fsync still holds its contents.
  } finally {
    await dir.close();
  }
}
