/**
 * Peer 2: get_order against the API-shaped surface (bench/peers/api-shaped.ts), the six reads an agent
 * would chain to learn the same things, all through the local gateway on the same DynamoDB Local.
 *
 * For the same order, by its owner: DynamoDB requests, HTTP round trips, agent turns (a turn is one model call
 * that proposes tool calls; the seller's tools need the seller id from the first answer, so at least two turns
 * even for a model that calls tools in parallel, six for one that calls them one at a time), response bytes
 * and tokens, the tool-result tokens a model reads while it chains (each turn re-reads every earlier result),
 * and latency: the six calls one after another, and in the two waves a parallel-calling agent would send.
 * Model time per turn is not in any figure; in practice it dominates, and it multiplies with the turns.
 */
import "#bench/support/setup";
import { pathToFileURL } from "node:url";
import { deployedToolNamed } from "#deploy/tool-functions";
import { benchFixture, benchToday, chooser } from "#bench/support/bench-orders";
import { type BenchGateway, benchGateway, type HttpReply } from "#bench/support/bench-gateway";
import { type ApiShapedTool, apiShapedHandlers, apiShapedTools, needsSeller } from "#bench/peers/api-shaped";
import { mean, ms, p50, p95, sum, table, times, utf8Bytes } from "#bench/support/stats";
import { tokenEncoding, tokensOf } from "#bench/support/token-encoding";
import { benchTables, type Endpoint, withDynamoDb } from "#bench/support/bench-world";
import { loadFixture } from "#store/fixture";
import { createHandler as createGetOrder } from "#tools/get-order";

export interface ApiShapedBenchOptions {
  calls?: number;
  endpoint?: Endpoint;
  log?: (line: string) => void;
}

interface Chain {
  /** One reply per tool, in apiShapedTools' order. */
  replies: HttpReply[];
  requests: number;
  ms: number;
}

export async function benchApiShaped(options: ApiShapedBenchOptions = {}): Promise<void> {
  const calls = options.calls ?? 300;
  const log = options.log ?? console.log;
  const warmup = Math.min(50, Math.ceil(calls / 5));
  await withDynamoDb(options.endpoint, async (endpoint) => {
    const world = await benchTables(endpoint, "peer2", () => benchToday);
    let gateway: BenchGateway | undefined;
    try {
      const fixture = benchFixture(600);
      await loadFixture(world.deps, fixture);
      const peer = apiShapedHandlers(world.deps);
      const getOrderPath = deployedToolNamed("get_order").routes[0]!.path;
      const peerPath = (tool: ApiShapedTool) => `/bench/api-shaped/${tool}`;
      gateway = await benchGateway([
        { path: getOrderPath, scope: "orders:read", handler: createGetOrder(world.deps) },
        ...apiShapedTools.map((tool) => ({ path: peerPath(tool), scope: "orders:read" as const, handler: peer[tool] })),
      ]);
      const g = gateway;
      const { pick } = chooser(31);

      const counted = async <T>(work: () => Promise<T>) => {
        const before = world.requests.total;
        const result = await work();
        return { result, requests: world.requests.total - before };
      };
      const callPeer = (tool: ApiShapedTool, customerId: string, orderId: string, sellerId: string) =>
        g.post(peerPath(tool), customerId, needsSeller(tool) ? { sellerId } : { orderId });
      /** The chain as a model that calls one tool per turn would run it. */
      const oneAtATime = async (customerId: string, orderId: string): Promise<Chain> => {
        const started = performance.now();
        const { result: replies, requests } = await counted(async () => {
          const replies: HttpReply[] = [];
          let sellerId = "";
          for (const tool of apiShapedTools) {
            const reply = await callPeer(tool, customerId, orderId, sellerId);
            if (reply.statusCode !== 200) throw new Error(`${tool} ${orderId}: ${reply.statusCode} ${reply.body}`);
            if (tool === "get_order_record") sellerId = (JSON.parse(reply.body) as { sellerId: string }).sellerId;
            replies.push(reply);
          }
          return replies;
        });
        return { replies, requests, ms: performance.now() - started };
      };
      /** The chain as a model that calls tools in parallel would run it: what needs only the order id, then the seller's two. */
      const inWaves = async (customerId: string, orderId: string): Promise<number> => {
        const started = performance.now();
        const first = await Promise.all(apiShapedTools.filter((t) => !needsSeller(t)).map((t) => callPeer(t, customerId, orderId, "")));
        const sellerId = (JSON.parse(first[0]!.body) as { sellerId: string }).sellerId;
        await Promise.all(apiShapedTools.filter(needsSeller).map((t) => callPeer(t, customerId, orderId, sellerId)));
        return performance.now() - started;
      };

      // get_order's sellers warm in its 60 s cache, as in a busy execution environment; the peer has no cache.
      for (const order of fixture.orders) await g.post(getOrderPath, order.customerId, { orderId: order.id });

      const ours: { reply: HttpReply; requests: number }[] = [];
      const chains: Chain[] = [];
      const waves: number[] = [];
      for (let i = 0; i < calls + warmup; i++) {
        const order = pick(fixture.orders);
        const steps = [
          async () => {
            const { result: reply, requests } = await counted(() => g.post(getOrderPath, order.customerId, { orderId: order.id }));
            if (reply.statusCode !== 200) throw new Error(`get_order ${order.id}: ${reply.statusCode} ${reply.body}`);
            if (i >= warmup) ours.push({ reply, requests });
          },
          async () => {
            const chain = await oneAtATime(order.customerId, order.id);
            if (i >= warmup) chains.push(chain);
          },
          async () => {
            const elapsed = await inWaves(order.customerId, order.id);
            if (i >= warmup) waves.push(elapsed);
          },
        ];
        // The three go in a rotating order, so none always runs first on a cold item.
        for (let s = 0; s < steps.length; s++) await steps[(i + s) % steps.length]!();
      }

      const ourTokens = ours.map((o) => tokensOf(o.reply.body));
      const chainTokens = chains.map((c) => c.replies.map((r) => tokensOf(r.body)));
      /** What a model reads of tool results while chaining: each turn re-reads all results so far. */
      const reread = (perTurn: number[]) => sum(perTurn.map((_, t) => sum(perTurn.slice(0, t + 1))));
      const waveTokens = (perTool: number[]) => {
        const first = sum(perTool.filter((_, i) => !needsSeller(apiShapedTools[i]!)));
        return first + sum(perTool);
      };
      const ourMs = p50(ours.map((o) => o.reply.ms));
      table(
        log,
        [
          "to learn what get_order answers",
          "DynamoDB req",
          "HTTP calls",
          "agent turns",
          "response B",
          `tokens`,
          "tokens read while chaining",
          "p50 ms",
          "p95 ms",
          "p50 vs get_order",
        ],
        [
          [
            "get_order (one call)",
            mean(ours.map((o) => o.requests)).toFixed(2),
            "1",
            "1",
            Math.round(mean(ours.map((o) => utf8Bytes(o.reply.body)))).toString(),
            Math.round(mean(ourTokens)).toString(),
            Math.round(mean(ourTokens)).toString(),
            ms(ourMs),
            ms(p95(ours.map((o) => o.reply.ms))),
            "1.00×",
          ],
          [
            "six API-shaped reads, one per turn",
            mean(chains.map((c) => c.requests)).toFixed(2),
            "6",
            "6",
            Math.round(mean(chains.map((c) => sum(c.replies.map((r) => utf8Bytes(r.body)))))).toString(),
            Math.round(mean(chainTokens.map(sum))).toString(),
            Math.round(mean(chainTokens.map(reread))).toString(),
            ms(p50(chains.map((c) => c.ms))),
            ms(p95(chains.map((c) => c.ms))),
            times(p50(chains.map((c) => c.ms)), ourMs),
          ],
          [
            "six API-shaped reads, in two waves",
            mean(chains.map((c) => c.requests)).toFixed(2),
            "6",
            "2",
            Math.round(mean(chains.map((c) => sum(c.replies.map((r) => utf8Bytes(r.body)))))).toString(),
            Math.round(mean(chainTokens.map(sum))).toString(),
            Math.round(mean(chainTokens.map(waveTokens))).toString(),
            ms(p50(waves)),
            ms(p95(waves)),
            times(p50(waves), ourMs),
          ],
        ],
      );
      log("");
      table(
        log,
        ["API-shaped read", "p50 ms", "response B", "tokens"],
        apiShapedTools.map((tool, i) => [
          tool,
          ms(p50(chains.map((c) => c.replies[i]!.ms))),
          Math.round(mean(chains.map((c) => utf8Bytes(c.replies[i]!.body)))).toString(),
          Math.round(mean(chainTokens.map((t) => t[i]!))).toString(),
        ]),
      );
      log(
        `\n${calls} orders (random, by their owners) after ${warmup} warm-up rounds; per order get_order, the six reads one at a time, and the six in two waves, in rotating order. ` +
          `Tokens: ${tokenEncoding}, of each response body as sent. get_order's seller cache is warm; the API-shaped reads have none. ` +
          `Latency is the tools' alone: each agent turn also costs a model call, not counted here.`,
      );
    } finally {
      await gateway?.close();
      await world.drop();
    }
  });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const callsArg = process.argv.indexOf("--calls");
  await benchApiShaped(callsArg > 0 ? { calls: Number(process.argv[callsArg + 1]) } : {});
}
