/**
 * Peer 2 of the benchmark: the API-shaped surface. What get_order answers in one call, published the way the
 * order system's own API is cut ("order, items, charges, seller, delivery, policy reference"): six
 * read tools an agent chains, each returning that source's record as stored.
 *
 * Built as well as that surface allows: each tool checks the caller's access (the order's owner, or support)
 * with the same principal and error bodies as order-tools, validates its input with zod, reads with one
 * request, and logs and meters each call the same way. The policy tool resolves the seller's supplement or
 * default itself (one BatchGetItem), which spares the agent a seventh call: the peer's best case.
 *
 * What it does not do is what the comparison is about: nothing is joined, trimmed or marked on the server. The
 * order record carries every stored field (the ~54 internal ones too), descriptions and the delivery note are
 * bare strings, and the agent must learn the seller id from the first answer before it can ask the last two.
 */
import { BatchGetCommand, GetCommand } from "@aws-sdk/lib-dynamodb";
import * as z from "zod";
import { orderId } from "#contract/fields";
import { parseArguments } from "#contract/validate";
import { InvalidInputError, OrderNotFoundError } from "#core/errors";
import { defaultPolicies, resolvePolicy, type ReturnPolicy, type Seller, supplementRef } from "#core/policy";
import { mayAccessOrder, type Principal, principalFromClaims, scopes } from "#core/principal";
import type { StoreDeps } from "#store/client";
import { policyKey, sellerKey, withoutStoreAttributes } from "#store/keys";
import { contentAttributes, orderOf, readStoredOrder } from "#store/order-items";
import type { ToolHandler } from "#runtime/handler";
import { errorResponse, type HttpResult, jsonResponse, readBody } from "#runtime/http";
import { type CallKeys, principalHash, recordCall, requestLogger } from "#runtime/observability";

const byOrder = z.strictObject({ orderId });
const bySeller = z.strictObject({
  sellerId: z.string().regex(/^SLR-\d+$/, "seller ids are SLR- followed by digits, as get_order_record returns them"),
});

/** The six tools in the order an agent would call them: the order first (it names the seller), then the rest. */
export const apiShapedTools = [
  "get_order_record",
  "get_order_items",
  "get_order_charges",
  "get_order_delivery",
  "get_seller",
  "get_return_policy",
] as const;
export type ApiShapedTool = (typeof apiShapedTools)[number];

/** What each tool needs: the order's id, or the seller's, which only the first answer gives. */
export const needsSeller = (tool: ApiShapedTool) => tool === "get_seller" || tool === "get_return_policy";

/** Fields of the order record that have a tool of their own. */
const splitOff = ["items", "charges", "delivery", "deliveryNote"];

export function apiShapedHandlers(deps: StoreDeps): Record<ApiShapedTool, ToolHandler> {
  /**
   * The order's attributes `fields` (all when omitted), if the caller may see the order; else ORDER_NOT_FOUND. One
   * request, as the order system's endpoint would make it: its state item alone when that holds every field asked
   * for, else the order read as get_order reads it (functions/store/order-items.ts): one GetItem of its state when
   * this environment holds its content at the version the state names, one Query of its partition when not.
   */
  async function orderPart(id: string, principal: Principal, fields?: string[]): Promise<Record<string, unknown>> {
    const withContent = !fields || fields.some((field) => (contentAttributes as readonly string[]).includes(field));
    const stored = await readStoredOrder(deps, id, withContent);
    if (!stored || !mayAccessOrder(principal, stored.state as { customerId: string; sellerId: string })) throw new OrderNotFoundError(id);
    const order: Record<string, unknown> = withContent ? orderOf(stored) : withoutStoreAttributes(stored.state);
    return fields ? Object.fromEntries(fields.map((field) => [field, order[field]])) : order;
  }

  const tool = <S extends z.ZodType>(
    name: ApiShapedTool,
    schema: S,
    run: (args: z.output<S>, principal: Principal) => Promise<unknown>,
  ): ToolHandler => {
    return async (event) => {
      const startedAt = Date.now();
      const keys: CallKeys = {};
      const log = requestLogger(name, event, keys);
      let result: HttpResult;
      let failure: unknown;
      try {
        const jwt = event.requestContext?.authorizer?.jwt;
        const principal = principalFromClaims(jwt?.claims, jwt?.scopes ?? undefined, scopes.read);
        keys.principal = principalHash(principal.sub);
        result = jsonResponse(200, await run(parseArguments(schema, name, readBody(event)), principal));
      } catch (error) {
        failure = error;
        result = errorResponse(error, name, false, log);
      }
      recordCall(log, name, false, result, startedAt, failure);
      return result;
    };
  };

  return {
    get_order_record: tool("get_order_record", byOrder, async (args, principal) => {
      const order = await orderPart(args.orderId, principal);
      for (const field of splitOff) delete order[field];
      return order;
    }),
    get_order_items: tool("get_order_items", byOrder, async (args, principal) => {
      const { items } = await orderPart(args.orderId, principal, ["items"]);
      return { orderId: args.orderId, items };
    }),
    get_order_charges: tool("get_order_charges", byOrder, async (args, principal) => {
      const { charges, currency } = await orderPart(args.orderId, principal, ["charges", "currency"]);
      return { orderId: args.orderId, currency, charges };
    }),
    get_order_delivery: tool("get_order_delivery", byOrder, async (args, principal) => {
      const { delivery, deliveryNote, deliveredAt } = await orderPart(args.orderId, principal, ["delivery", "deliveryNote", "deliveredAt"]);
      return { orderId: args.orderId, ...(delivery as object), deliveredAt, deliveryNote };
    }),
    get_seller: tool("get_seller", bySeller, async (args) => {
      const { Item } = await deps.doc.send(new GetCommand({ TableName: deps.tables.orders, Key: sellerKey(args.sellerId) }));
      if (!Item) throw noSeller(args.sellerId);
      return withoutStoreAttributes(Item);
    }),
    get_return_policy: tool("get_return_policy", bySeller, async (args) => {
      const keys = [
        sellerKey(args.sellerId),
        policyKey(supplementRef(args.sellerId)),
        policyKey(defaultPolicies.sundry.ref),
        policyKey(defaultPolicies.marketplace.ref),
      ];
      const { Responses } = await deps.doc.send(new BatchGetCommand({ RequestItems: { [deps.tables.orders]: { Keys: keys } } }));
      const items = (Responses?.[deps.tables.orders] ?? []).map((item) => ({ pk: item.PK as string, value: withoutStoreAttributes(item) }));
      const find = (pk: string) => items.find((i) => i.pk === pk)?.value;
      const seller = find(sellerKey(args.sellerId).PK) as unknown as Seller | undefined;
      if (!seller) throw noSeller(args.sellerId);
      return resolvePolicy(
        seller,
        find(policyKey(supplementRef(args.sellerId)).PK) as unknown as ReturnPolicy | undefined,
        find(policyKey(defaultPolicies[seller.type].ref).PK) as unknown as ReturnPolicy | undefined,
      );
    }),
  };
}

const noSeller = (sellerId: string) =>
  new InvalidInputError([
    { path: "sellerId", message: `There is no seller ${sellerId}; use the sellerId that get_order_record returned for the order.` },
  ]);
