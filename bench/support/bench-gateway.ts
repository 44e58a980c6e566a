/**
 * The local gateway (local/gateway.ts: route, JWT verification with the route's scope, the v2.0 event)
 * in front of handlers the bench builds with its own store dependencies, and an HTTP client that times each
 * call as an agent's tool runtime would see it.
 *
 * The client is node:http with a keep-alive agent, the leanest client Node has: the figures are the service's,
 * and the instrument should add as little as it can. Node 20's fetch (undici, web streams) costs about 0.5 ms
 * more CPU per call on this machine (CPU profile of the changes section), which would be the client's, not the
 * service's.
 */
import { Agent, request } from "node:http";
import type { Scope } from "#core/principal";
import { principalClaims, signDevToken } from "#local/dev-auth";
import { startGateway } from "#local/gateway";
import type { GatewayRoute } from "#local/routes";
import type { ToolHandler } from "#runtime/handler";

export interface BenchRoute {
  path: string;
  scope: Scope;
  handler: ToolHandler;
}

export interface HttpReply {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
  /** From sending the request to having read the whole response, on the client. */
  ms: number;
  /** Of that, the time inside the handler. */
  handlerMs: number;
}

export interface BenchGateway {
  url: string;
  /** POSTs `body` as JSON with a bearer token for the customer. */
  post(path: string, customerId: string, body: unknown): Promise<HttpReply>;
  close(): Promise<void>;
}

/** Starts the gateway on a free loopback port with exactly these routes (all POST, all token-authorized). */
export async function benchGateway(routes: readonly BenchRoute[]): Promise<BenchGateway> {
  const handlerMs = new Map<string, number>();
  const table: GatewayRoute[] = routes.map((route) => ({
    method: "POST",
    path: route.path,
    name: route.path.split("/").at(-1) as string,
    access: "token",
    scope: route.scope,
    entry: `bench:${route.path}`,
  }));
  const byEntry = new Map(routes.map((route) => [`bench:${route.path}`, route.handler]));
  const gateway = await startGateway({
    port: 0,
    routes: table,
    resolveHandler: (route) => {
      const handler = byEntry.get(route.entry) as ToolHandler;
      // Times the handler alone, keyed by the request id the client sends, so each call's split is exact.
      return async (event, context) => {
        const started = performance.now();
        try {
          return await handler(event, context);
        } finally {
          const id = event.headers?.["x-bench-call"];
          if (id) handlerMs.set(id, performance.now() - started);
        }
      };
    },
  });

  const tokens = new Map<string, Promise<string>>();
  const tokenFor = (customerId: string) => {
    let token = tokens.get(customerId);
    if (!token) {
      token = signDevToken(principalClaims({ customer: customerId }), { ttlSeconds: 6 * 3600 });
      tokens.set(customerId, token);
    }
    return token;
  };
  let calls = 0;
  const agent = new Agent({ keepAlive: true, maxSockets: 16 });

  return {
    url: gateway.url,
    async post(path, customerId, body) {
      const token = await tokenFor(customerId);
      const id = String(calls++);
      const text = JSON.stringify(body);
      const started = performance.now();
      const response = await post(agent, `${gateway.url}${path}`, text, {
        authorization: `Bearer ${token}`,
        "content-type": "application/json",
        "x-bench-call": id,
      });
      const elapsed = performance.now() - started;
      const inHandler = handlerMs.get(id) ?? Number.NaN;
      handlerMs.delete(id);
      return { ...response, ms: elapsed, handlerMs: inHandler };
    },
    close: async () => {
      agent.destroy();
      await gateway.close();
    },
  };
}

/** One POST on a kept-alive connection, its whole body read. */
function post(
  agent: Agent,
  url: string,
  body: string,
  headers: Record<string, string>,
): Promise<Pick<HttpReply, "statusCode" | "headers" | "body">> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: "POST", agent, headers: { ...headers, "content-length": String(Buffer.byteLength(body)) } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("error", reject);
        res.on("end", () => {
          const flat: Record<string, string> = {};
          for (const [name, value] of Object.entries(res.headers))
            if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(", ") : value;
          resolve({ statusCode: res.statusCode ?? 0, headers: flat, body: Buffer.concat(chunks).toString("utf8") });
        });
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}
