/**
 * The local stack's OAuth 2.1 authorization server, so that an MCP client can do locally what it does against a
 * deployment: read the protected-resource metadata, register itself, send the developer's browser to sign in,
 * and exchange the code for a token — with no pasted token. It is oidc-provider (OpenID certified, maintained),
 * configured for what MCP clients use: authorization code with PKCE (S256), resource indicators (RFC 8707: the
 * token's audience is the MCP URL it asked for), dynamic client registration (RFC 7591), JWT access tokens.
 *
 * Its issuer is the gateway's own URL (RFC 8414 needs the metadata at the issuer's origin), and it signs with the
 * dev key `npm run token` uses: a token from here carries the same claims as `npm run token` prints for the same
 * principal (`sub`, `customer_id` or `seller_id`, `scope`), its issuer is this server and its audience the MCP URL.
 * The sign-in page lists the demo data's customers, a support actor and a seller to act as, each with the scope
 * its token will carry; the token response's `scope` is the token's own.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { randomBytes } from "node:crypto";
import { stripVTControlCharacters } from "node:util";
import { decodeJwt, type JWTPayload } from "jose";
import type { Configuration, Provider } from "oidc-provider";
import { scopes as orderScopes } from "#core/principal";
import { devSigningKey, principalClaims } from "#local/dev-auth";
import { endpointScopes, mcpPath } from "#runtime/oauth-resource";

/** Every path this server answers; the gateway sends these here before its own routes. */
const prefix = "/oauth";
const discoveryPaths = new Set(["/.well-known/oauth-authorization-server", "/.well-known/openid-configuration"]);

/** Who the developer can sign in as: the demo data's people, one member of staff, one marketplace seller. */
export const signInChoices = [
  { value: "customer:C-1001", label: "Ana Costa (customer C-1001): an order in every status" },
  { value: "customer:C-2002", label: "Ben Okafor (customer C-2002)" },
  { value: "customer:C-3003", label: "Chloé Martin (customer C-3003)" },
  { value: "customer:C-4004", label: "Dev Patel (customer C-4004)" },
  { value: "support:S-7", label: "Support actor S-7: any order, every write records the actor" },
  { value: "seller:SLR-2210", label: "Seller SLR-2210, Ashcombe Furniture: its own orders" },
] as const;

export type SignInChoice = (typeof signInChoices)[number]["value"];

/**
 * The order scopes a token for this choice carries when the client asked for `requested`: the read and write
 * scopes it asked for, and orders:support exactly when the principal is the support actor — a support token
 * without it names no principal (contract §1), and a customer's or seller's with it would claim what they are not.
 * The sign-in page shows this, the token carries it, and the token response says it.
 */
export function tokenScopesFor(choice: SignInChoice, requested: readonly string[]): string[] {
  const support = choice.startsWith("support:");
  const asked = endpointScopes.filter((scope) => requested.includes(scope));
  return support ? [...asked, orderScopes.support] : asked;
}

/**
 * The claims a token for this choice carries, as `npm run token` prints them for the same principal. A seller's
 * are written here: `{sub, seller_id, scope}`, shaped like a customer's.
 */
export function claimsFor(choice: SignInChoice): JWTPayload {
  const [kind, id] = choice.split(":") as ["customer" | "support" | "seller", string];
  if (kind === "customer") return principalClaims({ customer: id });
  if (kind === "support") return principalClaims({ support: id });
  return principalClaims({ seller: id });
}

export interface LocalAuthorizationServer {
  /** Whether a request for this path is the authorization server's. */
  handles(pathname: string): boolean;
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
}

/** The server for a gateway at `issuer` (its base URL), made on the first request that needs it. */
export function localAuthorizationServer(issuer: string): LocalAuthorizationServer {
  let provider: Promise<{ provider: Provider; callback: (req: IncomingMessage, res: ServerResponse) => Promise<void> }> | undefined;
  return {
    handles: (pathname) => discoveryPaths.has(pathname) || pathname === prefix || pathname.startsWith(`${prefix}/`),
    async handle(req, res) {
      provider ??= createProvider(issuer);
      const { provider: p, callback } = await provider;
      const url = new URL(req.url ?? "/", issuer);
      const interaction = /^\/oauth\/interaction\/([^/]+)(\/(login|abort))?$/.exec(url.pathname);
      if (interaction) return signIn(p, req, res, interaction[3] as "login" | "abort" | undefined);
      // RFC 8414 metadata is the same document as OpenID discovery, at the path RFC 8414 gives it.
      if (url.pathname === "/.well-known/oauth-authorization-server") req.url = `/.well-known/openid-configuration${url.search}`;
      await callback(req, res);
    },
  };
}

const serverScopes = ["openid", "offline_access", ...endpointScopes, orderScopes.support] as const;

/** Principals signed in here, by `sub`: the token customizer adds their claims. In memory, like every grant here. */
const signedIn = new Map<string, { choice: SignInChoice; claims: JWTPayload }>();

/**
 * Loads the library ahead of its first use: `npm start` calls this while Java boots, so that the notice the library
 * prints on import when it finds a Node older than it supports ("oidc-provider WARNING: Unsupported runtime …")
 * comes at start, where `npm start` explains it, not amid the request lines on the first sign-in. Returns that
 * notice if the library printed it (it decides, by its own check), after letting it through unchanged.
 */
export async function preloadAuthorizationServer(): Promise<string | undefined> {
  let notice: string | undefined;
  const warn = console.warn;
  console.warn = (...args: unknown[]) => {
    const text = stripVTControlCharacters(args.map(String).join(" "));
    if (text.startsWith("oidc-provider WARNING:")) notice = text;
    warn(...args);
  };
  try {
    await import("oidc-provider");
  } finally {
    console.warn = warn;
  }
  return notice;
}

async function createProvider(issuer: string) {
  const [{ default: ProviderClass }, { createMemoryAdapter }, key] = await Promise.all([
    import("oidc-provider"),
    // The library's own in-memory store, passed explicitly: the local stack keeps no state across restarts anyway.
    import("oidc-provider/lib/adapters/memory_adapter.js"),
    devSigningKey(),
  ]);
  const resource = `${issuer}${mcpPath}`;
  const configuration: Configuration = {
    adapter: createMemoryAdapter(),
    jwks: { keys: [key.privateJwk as never] },
    cookies: { keys: [randomBytes(32).toString("base64url")] },
    routes: {
      authorization: `${prefix}/authorize`,
      token: `${prefix}/token`,
      jwks: `${prefix}/jwks`,
      registration: `${prefix}/register`,
      revocation: `${prefix}/revoke`,
      end_session: `${prefix}/session/end`,
      userinfo: `${prefix}/me`,
      introspection: `${prefix}/introspect`,
      code_verification: `${prefix}/device`,
      device_authorization: `${prefix}/device/auth`,
      pushed_authorization_request: `${prefix}/par`,
      backchannel_authentication: `${prefix}/backchannel`,
      challenge: `${prefix}/challenge`,
    },
    interactions: { url: (_ctx, interaction) => `${prefix}/interaction/${interaction.uid}` },
    // Listed here so that clients may register with them; the token for the MCP URL carries them as the
    // resource's scopes (getResourceServerInfo below).
    scopes: [...serverScopes],
    claims: { openid: ["sub"] },
    clientDefaults: { grant_types: ["authorization_code", "refresh_token"], response_types: ["code"], token_endpoint_auth_method: "none" },
    features: {
      devInteractions: { enabled: false },
      // MCP clients register themselves; locally anyone may (there is nothing but demo data behind it).
      registration: { enabled: true },
      revocation: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => resource,
        useGrantedResource: () => true,
        getResourceServerInfo: async (_ctx, indicator) => {
          if (indicator !== resource) {
            const { errors } = await import("oidc-provider");
            throw new errors.InvalidTarget(`This authorization server issues tokens for ${resource} only, not ${indicator}.`);
          }
          return {
            scope: [...endpointScopes, orderScopes.support].join(" "),
            audience: resource,
            accessTokenFormat: "jwt",
            accessTokenTTL: 3600,
            jwt: { sign: { alg: "RS256", kid: key.kid } },
          };
        },
      },
    },
    responseTypes: ["code"],
    pkce: { required: () => true },
    findAccount: async (_ctx, sub) => (signedIn.has(sub) ? { accountId: sub, claims: async () => ({ sub }) } : undefined),
    formats: {
      customizers: {
        // The principal's claims, as `npm run token` writes them, and the scopes tokenScopesFor gives it for what
        // the client asked (the grant holds those; orders:support is the principal's, not the client's to ask).
        jwt: async (_ctx, token, jwt) => {
          const signIn = "accountId" in token ? signedIn.get(String(token.accountId)) : undefined;
          if (!signIn) return;
          const { sub: _sub, scope: _scope, ...principal } = signIn.claims;
          Object.assign(jwt.payload, principal);
          jwt.payload.scope = tokenScopesFor(signIn.choice, String(jwt.payload.scope ?? "").split(" ")).join(" ");
        },
      },
    },
    ttl: {
      AccessToken: 3600,
      AuthorizationCode: 120,
      IdToken: 3600,
      Interaction: 600,
      Session: 86_400,
      Grant: 86_400,
      RefreshToken: 86_400,
    },
    renderError: async (ctx, out) => {
      ctx.type = "html";
      ctx.body = page("Sign-in failed", `<p>${escapeHtml(String(out.error))}: ${escapeHtml(String(out.error_description ?? ""))}</p>`);
    },
  };
  const provider = new ProviderClass(issuer, configuration);
  // The token response's `scope` is the token's own, customizer included (the library would say the grant's,
  // without a support actor's orders:support).
  provider.use(async (ctx, next) => {
    await next();
    const body = ctx.body as { access_token?: unknown; scope?: unknown } | undefined;
    if (ctx.oidc?.route === "token" && ctx.status === 200 && typeof body?.access_token === "string") {
      const { scope } = decodeJwt(body.access_token);
      if (typeof scope === "string") body.scope = scope;
    }
  });
  const koaCallback = provider.callback();
  const callback = (req: IncomingMessage, res: ServerResponse) =>
    new Promise<void>((resolve) => {
      res.once("finish", resolve);
      res.once("close", resolve);
      void koaCallback(req, res);
    });
  return { provider, callback };
}

/** The sign-in page: pick a principal, allow the client what it asked for. GET shows it, POST …/login signs in. */
async function signIn(provider: Provider, req: IncomingMessage, res: ServerResponse, action: "login" | "abort" | undefined): Promise<void> {
  let details: Awaited<ReturnType<Provider["interactionDetails"]>>;
  try {
    details = await provider.interactionDetails(req, res);
  } catch {
    return sendHtml(
      res,
      400,
      page(
        "Sign-in expired",
        "<p>This sign-in is no longer open (it expired, or was finished in another tab). Start again from your MCP client.</p>",
      ),
    );
  }
  if (action === "abort") {
    return void (await provider.interactionFinished(
      req,
      res,
      { error: "access_denied", error_description: "The developer declined on the local sign-in page." },
      { mergeWithLastSubmission: false },
    ));
  }
  const { params, uid } = details;
  if (action === "login" && req.method === "POST") {
    const form = new URLSearchParams(await readBody(req));
    const choice = signInChoices.find((c) => c.value === form.get("principal"))?.value;
    if (!choice)
      return sendHtml(res, 400, signInPage(uid, params, await clientName(provider, params.client_id), "Pick one of the principals below."));
    const claims = claimsFor(choice);
    const accountId = String(claims.sub);
    signedIn.set(accountId, { choice, claims });
    // One step: signing in here is also allowing the client what it asked for.
    const grant = new provider.Grant({ accountId, clientId: String(params.client_id) });
    const requested = String(params.scope ?? "")
      .split(" ")
      .filter(Boolean);
    const known = requested.filter((s) => (serverScopes as readonly string[]).includes(s));
    if (known.length) grant.addOIDCScope(known.join(" "));
    const resources = [params.resource].flat().filter((r): r is string => typeof r === "string");
    for (const indicator of resources.length ? resources : [`${provider.issuer}${mcpPath}`]) {
      // All it asked for, or the library would ask for consent again; the token carries tokenScopesFor's part of it.
      grant.addResourceScope(indicator, requested.filter((s) => s.startsWith("orders:")).join(" "));
    }
    const grantId = await grant.save();
    return void (await provider.interactionFinished(
      req,
      res,
      { login: { accountId }, consent: { grantId } },
      { mergeWithLastSubmission: false },
    ));
  }
  return sendHtml(res, 200, signInPage(uid, params, await clientName(provider, params.client_id)));
}

/** The name the client registered (`client_name`), if it gave one: a person recognises that, not the opaque id. */
async function clientName(provider: Provider, clientId: unknown): Promise<string | undefined> {
  const client = await provider.Client.find(String(clientId)).catch(() => undefined);
  return client?.clientName?.trim() || undefined;
}

function signInPage(uid: string, params: Record<string, unknown>, name: string | undefined, problem?: string): string {
  const requested = String(params.scope ?? "")
    .split(" ")
    .filter(Boolean);
  const options = signInChoices
    .map((c, i) => {
      const scope = tokenScopesFor(c.value, requested).join(" ") || "no order scope";
      return `<label><input type="radio" name="principal" value="${c.value}"${i === 0 ? " checked" : ""}> ${escapeHtml(c.label)} <small>(token scope <code>${escapeHtml(scope)}</code>)</small></label>`;
    })
    .join("\n");
  const clientId = escapeHtml(String(params.client_id));
  const client = name ? `<b>${escapeHtml(name)}</b> <small>(client id <code>${clientId}</code>)</small>` : `<b>${clientId}</b>`;
  return page(
    "Sign in to order-tools (local)",
    `${problem ? `<p class="problem">${escapeHtml(problem)}</p>` : ""}
<p>The MCP client ${client} asks for <code>${escapeHtml(String(params.scope ?? "(no scope)"))}</code> on <code>${escapeHtml(String([params.resource].flat()[0] ?? ""))}</code>.</p>
<form method="post" action="${prefix}/interaction/${uid}/login">
<fieldset><legend>Act as</legend>
${options}
</fieldset>
<button type="submit">Sign in and allow</button> <a href="${prefix}/interaction/${uid}/abort">Cancel</a>
</form>
<p class="note">Local demo sign-in: no password, the same tokens as <code>npm run token</code> prints. Deployed, users sign in to the stack's user pools.</p>`,
  );
}

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<style>body{font:16px system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem}label{display:block;margin:.4rem 0}fieldset{margin:1rem 0}.problem{color:#a00}.note{color:#555;font-size:.9em}</style>
</head><body><h1>${escapeHtml(title)}</h1>${body}</body></html>`;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function sendHtml(res: ServerResponse, status: number, html: string): void {
  res.writeHead(status, {
    "content-type": "text/html; charset=utf-8",
    "cache-control": "no-store",
    "content-length": String(Buffer.byteLength(html)),
  });
  res.end(html);
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => {
      text += chunk;
      if (text.length > 16 * 1024) req.destroy(new Error("sign-in form too large"));
    });
    req.once("end", () => resolve(text));
    req.once("error", reject);
  });
}
