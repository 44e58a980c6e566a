/**
 * Reading a principal's message (`npm run bench -- --only message`), pure CPU: every reading the guards make of one
 * message — its content words, data, order references, the closed form of a request and the answer reader — by the
 * message's length, up to the controller's bound (limits.maxMessageCharacters, 4,000 by default) and well past it, in
 * the shapes that once made reading grow with the square of the length (a long run of word characters, of hyphens).
 * A turn never reads past the bound; the rows past it show the readers stay linear should an application raise it.
 */
import { readAnswer } from "#controller/guard/answer";
import { readMessage } from "#controller/guard/message";

const shapes: Record<string, (length: number) => string> = {
  "plain words": (n) => "please cancel the order for me ".repeat(Math.ceil(n / 31)).slice(0, n),
  "one long word": (n) => `note ${"x".repeat(n - 5)}`,
  "hyphen run": (n) => "a-".repeat(Math.ceil(n / 2)).slice(0, n),
};
const lengths = [1_000, 4_000, 40_000, 160_000];

export async function benchMessageReading(options: { rounds?: number; log?: (line: string) => void } = {}): Promise<void> {
  const rounds = Math.max(3, options.rounds ?? 10);
  const log = options.log ?? console.log;
  log(`${rounds - 1} rounds after one warm-up round; milliseconds to read one message with every reader the guards use.\n`);
  log(["shape".padEnd(16), ...lengths.map((l) => `${l.toLocaleString("en")} ch`.padStart(12))].join(""));
  for (const [shape, make] of Object.entries(shapes)) {
    const cells: string[] = [];
    for (const length of lengths) {
      const text = make(length);
      const times: number[] = [];
      for (let round = 0; round < rounds; round++) {
        const started = performance.now();
        const message = readMessage(text);
        void message.contentWords;
        void message.dataTokens;
        void message.orderReferences;
        message.requestForm("2026-12-07");
        readAnswer(text, "en");
        if (round > 0) times.push(performance.now() - started);
      }
      times.sort((a, b) => a - b);
      cells.push((times[Math.floor(times.length / 2)] ?? 0).toFixed(1).padStart(12));
    }
    log([shape.padEnd(16), ...cells].join(""));
  }
}
