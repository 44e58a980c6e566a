/**
 * Imported first by `npm run bench` and by every section run alone, before any handler module loads (Powertools
 * reads its settings when its Logger and Metrics are made, at module scope).
 *
 * The handlers run as deployed: log level INFO (one line per call) and EMF metrics on. Their cost stays in
 * every figure; only their lines are kept off the bench's output: Powertools writes them to stdout as JSON
 * objects, which are dropped here (and counted).
 */
process.env.POWERTOOLS_SERVICE_NAME ??= "order-tools";
process.env.POWERTOOLS_LOG_LEVEL ??= "INFO";
// Handlers made from the environment (none of the bench's own) must not be throttled either.
// (No imports here: this module must run before anything that could load a handler.)
Object.assign(process.env, { ORDER_TOOLS_REQUEST_BUDGET: "0", ORDER_TOOLS_HOURLY_CAP: "0", ORDER_TOOLS_SUPPORT_HOURLY_CAP: "0" });

export let droppedHandlerLines = 0;

for (const stream of [process.stdout, process.stderr]) {
  const write = stream.write.bind(stream);
  stream.write = ((chunk: unknown, ...rest: unknown[]) => {
    if (typeof chunk === "string" && /^\{"(_aws|level|cold_start|timestamp)"/.test(chunk)) {
      droppedHandlerLines++;
      const callback = rest.find((r) => typeof r === "function") as (() => void) | undefined;
      callback?.();
      return true;
    }
    return (write as (...args: unknown[]) => boolean)(chunk, ...rest);
  }) as typeof stream.write;
}
