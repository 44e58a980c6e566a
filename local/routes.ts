/**
 * The local gateway's routes, derived as the CDK stack derives them: every route of every tool in the deployment
 * manifest, functions/deploy/tool-functions.ts (the tool's scope is the route's authorization scope), and the
 * routes of the service functions (catalogue, OpenAPI, MCP) from functions/deploy/service-functions.ts. A tool or service function added there is served
 * locally without touching this file.
 */
import { serviceFunctions } from "#deploy/service-functions";
import { deployedTools as tools } from "#deploy/tool-functions";
import type { Scope } from "#core/principal";

export interface GatewayRoute {
  method: "GET" | "POST" | "DELETE";
  /** The path template, e.g. /v1/operations/{operationId}. */
  path: string;
  /** What the handler is called (its Lambda function name locally). */
  name: string;
  /**
   * public: no authorizer. token: a verified JWT, and the route's scope when it has one, as API Gateway checks them.
   * self: no authorizer either; the function verifies the bearer token itself (MCP).
   */
  access: "public" | "token" | "self";
  scope?: Scope;
  /** The handler module, relative to the repository root; it exports `handler`. */
  entry: string;
}

const toolRoutes: GatewayRoute[] = tools.flatMap((tool) =>
  tool.routes.map((route) => ({ ...route, name: tool.name, access: "token" as const, scope: tool.scope, entry: tool.entry })),
);

const serviceRoutes: GatewayRoute[] = serviceFunctions.flatMap((fn) =>
  fn.routes.map((route) => ({ ...route, name: fn.name, access: fn.access, entry: "localEntry" in fn ? fn.localEntry : fn.entry })),
);

export const routes: readonly GatewayRoute[] = [...toolRoutes, ...serviceRoutes];

export const routeKey = (route: Pick<GatewayRoute, "method" | "path">) => `${route.method} ${route.path}`;

export type RouteMatch =
  | { kind: "route"; route: GatewayRoute; pathParameters: Record<string, string> }
  /** The path exists, but not for this method: 405 with these methods in `Allow`. */
  | { kind: "method-not-allowed"; allow: string[] }
  | { kind: "not-found" };

/** Matches a concrete path against the templates; `{name}` matches one non-empty segment, URL-decoded. */
export function matchRoute(method: string, path: string, table: readonly GatewayRoute[] = routes): RouteMatch {
  const allow = new Set<string>();
  for (const route of table) {
    const pathParameters = matchPath(route.path, path);
    if (!pathParameters) continue;
    if (route.method === method) return { kind: "route", route, pathParameters };
    allow.add(route.method);
  }
  return allow.size > 0 ? { kind: "method-not-allowed", allow: [...allow].sort() } : { kind: "not-found" };
}

function matchPath(template: string, path: string): Record<string, string> | undefined {
  const want = template.split("/");
  const got = path.split("/");
  if (want.length !== got.length) return undefined;
  const parameters: Record<string, string> = {};
  for (const [i, part] of want.entries()) {
    const actual = got[i] as string;
    const name = /^\{(\w+)\}$/.exec(part)?.[1];
    if (name === undefined) {
      if (part !== actual) return undefined;
      continue;
    }
    if (actual === "") return undefined;
    try {
      parameters[name] = decodeURIComponent(actual);
    } catch {
      parameters[name] = actual;
    }
  }
  return parameters;
}
