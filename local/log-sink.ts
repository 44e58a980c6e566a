import { createWriteStream, mkdirSync } from "node:fs";
import { dirname } from "node:path";

/**
 * Sends the structured lines the handlers write — Powertools' JSON log lines and its EMF metric lines, each one
 * JSON object per line, as CloudWatch gets them in AWS — to `file` instead of the terminal, so the console shows
 * the gateway's readable `POST /v1/tools/get_order → 200 (12 ms)` lines. Any other output is untouched. Returns
 * the file's path.
 */
export function divertStructuredLogs(file: string): string {
  mkdirSync(dirname(file), { recursive: true });
  const sink = createWriteStream(file, { flags: "a" });
  for (const stream of [process.stdout, process.stderr]) {
    const write = stream.write.bind(stream) as (...args: unknown[]) => boolean;
    stream.write = ((chunk: unknown, ...rest: unknown[]) => {
      const text = typeof chunk === "string" ? chunk : chunk instanceof Uint8Array ? Buffer.from(chunk).toString("utf8") : "";
      if (!text.startsWith("{")) return write(chunk, ...rest);
      const callback = rest.find((arg): arg is (error?: Error | null) => void => typeof arg === "function");
      return sink.write(text.endsWith("\n") ? text : `${text}\n`, callback);
    }) as typeof stream.write;
  }
  return file;
}

/**
 * For a command whose standard output is its result (`npm run invoke … | jq`): from now on whatever else this
 * process writes there — the handler's Powertools log and EMF metric lines, which go to stdout as in Lambda — goes
 * to stderr, where the developer still sees it. Returns the one way left to write to stdout.
 */
export function keepStdoutForTheResult(): (text: string) => void {
  const write = process.stdout.write.bind(process.stdout);
  process.stdout.write = process.stderr.write.bind(process.stderr) as typeof process.stdout.write;
  return (text) => void write(text);
}
