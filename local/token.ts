/**
 * `npm run --silent token -- --customer C-1001 | --support S-7 | --seller SLR-2210 [--scope "orders:read"] [--ttl 3600]`
 * prints a JWT, and only the JWT, that the local gateway accepts: RS256, signed with the dev key in
 * `.dev-keys/` (made on first use), issuer and audience as the gateway expects. Use it as
 * `TOKEN=$(npm run --silent token -- --customer C-1001)`.
 */
import { readOptions } from "#local/command-line";
import { customerIdPattern, sellerIdPattern } from "#core/principal";
import { defaultScopes, defaultTtlSeconds, type DevPrincipal, principalClaims, signDevToken } from "#local/dev-auth";

const usage = `Usage: npm run --silent token -- (--customer <C-id> | --support <staff-id> | --seller <SLR-id>) [--scope "<scopes>"] [--ttl <seconds>]

  --customer C-1001   a customer acting on their own orders (claim customer_id; default scopes "${defaultScopes.customer}")
  --support S-7       a member of staff (default scopes "${defaultScopes.support}")
  --seller SLR-2210   a marketplace seller acting on the orders it sold (claim seller_id; default scopes "${defaultScopes.seller}")
  --scope "..."       the scopes, space-separated, instead of the defaults (e.g. "orders:read")
  --ttl 3600          seconds until the token expires (default ${defaultTtlSeconds})

Prints only the token: TOKEN=$(npm run --silent token -- --customer C-1001)`;

function parse(argv: string[]): { principal: DevPrincipal; scope?: string; ttlSeconds: number } {
  const { values, refuse: fail } = readOptions(
    usage,
    {
      customer: { type: "string" },
      support: { type: "string" },
      seller: { type: "string" },
      scope: { type: "string" },
      ttl: { type: "string" },
    },
    argv,
  );
  const given = [values.customer, values.support, values.seller].filter((v) => v !== undefined).length;
  if (given !== 1) fail("Give exactly one of --customer, --support or --seller.");
  if (values.customer !== undefined && !customerIdPattern.test(values.customer)) {
    fail(`--customer ${JSON.stringify(values.customer)} is not a customer id: C- followed by digits, like C-1001.`);
  }
  if (values.seller !== undefined && !sellerIdPattern.test(values.seller)) {
    fail(`--seller ${JSON.stringify(values.seller)} is not a seller id: SLR- followed by 1 to 12 digits, like SLR-2210.`);
  }
  if (values.support !== undefined && !/^[A-Za-z0-9._-]{1,64}$/.test(values.support)) {
    fail(`--support ${JSON.stringify(values.support)} is not a staff id: letters, digits, '.', '_' or '-', like S-7.`);
  }
  if (values.scope !== undefined && !/^[\x21-\x7e]+( [\x21-\x7e]+)*$/.test(values.scope)) {
    fail(`--scope ${JSON.stringify(values.scope)} must be scopes separated by single spaces, like "orders:read orders:write".`);
  }
  const ttlSeconds = values.ttl === undefined ? defaultTtlSeconds : Number(values.ttl);
  if (!Number.isInteger(ttlSeconds) || ttlSeconds < 1 || ttlSeconds > 30 * 86_400) {
    fail(`--ttl ${JSON.stringify(values.ttl)} must be a whole number of seconds from 1 to ${30 * 86_400} (30 days).`);
  }
  const principal: DevPrincipal =
    values.customer !== undefined
      ? { customer: values.customer }
      : values.seller !== undefined
        ? { seller: values.seller }
        : { support: values.support as string };
  return { principal, ...(values.scope !== undefined ? { scope: values.scope } : {}), ttlSeconds };
}

const { principal, scope, ttlSeconds } = parse(process.argv.slice(2));
console.log(await signDevToken(principalClaims(principal, scope), { ttlSeconds }));
