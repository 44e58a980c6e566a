import { BatchWriteCommand } from "@aws-sdk/lib-dynamodb";
import * as z from "zod";
import {
  noteAuthors,
  orderIdPattern,
  orderStatuses,
  type SellerTextField,
  sellerTextProblem,
  type ShopSets,
  sellerTypes,
  shopSetsFrom,
  shopSetVariables,
  trackingIdPattern,
} from "#core/order";
import { currencyProblem } from "#core/currency";
import { sellerStatuses } from "#core/policy";
import type { StoreDeps } from "#store/client";
import { customerIndexKeys, customerKey, pickupSlotKey, policyKey, sellerKey, stockKey } from "#store/keys";
import { orderItemsOf } from "#store/order-items";

/** contract §6: the fixture format the seeder loads. Strict, so a misspelt field is named rather than dropped. */

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "must be a date like 2026-12-01");
const timestamp = z.iso.datetime({ message: "must be a UTC timestamp like 2026-03-08T09:12:00Z" });
const cents = z.number().int("must be a whole number of the currency's minor unit (pence, cents; yen for JPY, fils for BHD)");
/** A seller's text (contract §6): within its bound, and an error that says the bound when it is not. */
const sellerText = (field: SellerTextField, base = z.string()) =>
  base.superRefine((text, ctx) => {
    const problem = sellerTextProblem(field, text);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  });

export const fixtureSchema = z.strictObject({
  sellers: z
    .array(
      z.strictObject({
        id: z.string().regex(/^SLR-\d+$/, "seller ids are SLR- followed by digits"),
        name: sellerText("sellerName", z.string().min(1)),
        type: z.enum(sellerTypes),
        status: z.enum(sellerStatuses),
      }),
    )
    .default([]),
  policies: z
    .array(
      z.strictObject({
        ref: z
          .string()
          .regex(
            /^(seller-supp\/SLR-\d+|sundry\/standard|marketplace\/default)$/,
            "policy refs are seller-supp/<sellerId>, sundry/standard or marketplace/default",
          ),
        returnWindowDays: z.number().int().min(0).max(365),
      }),
    )
    .default([]),
  customers: z
    .array(
      z.strictObject({
        id: z.string().regex(/^C-\d{1,12}$/, "customer ids are C- followed by digits"),
        email: z.email(),
        name: z.string().min(1),
      }),
    )
    .default([]),
  stock: z.array(z.strictObject({ sku: z.string().min(1), available: z.number().int().min(0) })).default([]),
  pickupSlots: z
    .array(
      z.strictObject({
        date: day,
        window: z.string().regex(/^\d{2}:\d{2}-\d{2}:\d{2}$/, "windows look like 08:00-12:00"),
        capacity: z.number().int().min(0),
      }),
    )
    .default([]),
  orders: z
    .array(
      z
        .strictObject({
          id: z.string().regex(orderIdPattern, "order ids are SU- followed by five digits"),
          customerId: z.string(),
          sellerId: z.string(),
          status: z.enum(orderStatuses),
          version: z.number().int().min(1),
          placedAt: timestamp,
          deliveredAt: timestamp.nullable(),
          currency: z.string().superRefine((code, ctx) => {
            const problem = currencyProblem(code);
            if (problem) ctx.addIssue({ code: "custom", message: problem });
          }),
          items: z
            .array(
              z.strictObject({
                itemId: z.string().regex(/^ITM-\d+$/, "item ids are ITM- followed by digits"),
                sku: z.string().min(1),
                title: sellerText("itemTitle", z.string().min(1)),
                quantity: z.number().int().min(1),
                unitCents: cents,
                description: sellerText("itemDescription"),
                descriptionReviewed: z.boolean().optional(),
              }),
            )
            .min(1),
          charges: z.array(z.strictObject({ kind: z.string().min(1), cents })),
          delivery: z.strictObject({
            carrier: z.string().min(1),
            trackingId: z.string().regex(trackingIdPattern, "tracking ids are 2–40 capital letters, digits and hyphens").nullable(),
          }),
          deliveryNote: z.string().nullable().default(null),
          deliveryNoteBy: z.enum(noteAuthors).optional(),
          internal: z.record(z.string(), z.unknown()).default({}),
        })
        .superRefine((order, ctx) => {
          if ((order.status === "delivered") !== (order.deliveredAt !== null)) {
            ctx.addIssue({ code: "custom", path: ["deliveredAt"], message: "deliveredAt is set exactly when the status is delivered" });
          }
        }),
    )
    .default([]),
});

export type Fixture = z.output<typeof fixtureSchema>;

/**
 * Validates a fixture; the error names the first bad entry by collection, position and id. Carriers and charge
 * kinds are checked against the deployment's sets (`ORDER_TOOLS_CARRIERS`, `ORDER_TOOLS_CHARGE_KINDS`; today's
 * by default): the seeder is strict, though the read path answers any value the order system stored.
 */
export function parseFixture(input: unknown, sets: ShopSets = shopSetsFrom(process.env)): Fixture {
  const result = fixtureSchema.safeParse(input);
  if (!result.success) {
    const issue = result.error.issues[0] as z.core.$ZodIssue;
    throw new Error(`Fixture is invalid at ${describeEntry(input, issue.path)}: ${issue.message}`);
  }
  const fixture = result.data;
  const customers = new Set(fixture.customers.map((c) => c.id));
  const sellers = new Set(fixture.sellers.map((s) => s.id));
  for (const [i, order] of fixture.orders.entries()) {
    if (!customers.has(order.customerId))
      throw new Error(`Fixture is invalid at orders[${i}] (${order.id}): customer ${order.customerId} is not in customers`);
    if (!sellers.has(order.sellerId))
      throw new Error(`Fixture is invalid at orders[${i}] (${order.id}): seller ${order.sellerId} is not in sellers`);
    if (!sets.carriers.includes(order.delivery.carrier))
      throw new Error(
        `Fixture is invalid at orders[${i}] (${order.id}): the carrier ${JSON.stringify(order.delivery.carrier)} is not one of this deployment's carriers (${sets.carriers.join(", ")}; ${shopSetVariables.carriers} sets them)`,
      );
    const kind = order.charges.find((c) => !sets.chargeKinds.includes(c.kind))?.kind;
    if (kind !== undefined)
      throw new Error(
        `Fixture is invalid at orders[${i}] (${order.id}): the charge kind ${JSON.stringify(kind)} is not one of this deployment's (${sets.chargeKinds.join(", ")}; ${shopSetVariables.chargeKinds} sets them)`,
      );
  }
  return fixture;
}

function describeEntry(input: unknown, path: readonly PropertyKey[]): string {
  const [collection, index, ...rest] = path;
  if (typeof collection !== "string" || typeof index !== "number") return path.map(String).join(".") || "the top level";
  const entry = (input as Record<string, unknown[]>)[collection]?.[index] as Record<string, unknown> | undefined;
  const id = entry?.id ?? entry?.ref ?? entry?.sku ?? entry?.date;
  return `${collection}[${index}]${id !== undefined ? ` (${String(id)})` : ""}${rest.length ? ` field ${rest.map(String).join(".")}` : ""}`;
}

/** The stored items of a fixture: every entity with its keys, orders with what search and reads need. */
export function fixtureItems(fixture: Fixture): Record<string, unknown>[] {
  const sellers = new Map(fixture.sellers.map((s) => [s.id, s]));
  return [
    ...fixture.sellers.map((s) => ({ ...sellerKey(s.id), entity: "seller", ...s })),
    ...fixture.policies.map((p) => ({ ...policyKey(p.ref), entity: "policy", ...p })),
    ...fixture.customers.map((c) => ({ ...customerKey(c.id), ...customerIndexKeys(c), entity: "customer", ...c })),
    ...fixture.stock.map((s) => ({ ...stockKey(s.sku), entity: "stock", ...s })),
    ...fixture.pickupSlots.map((p) => ({ ...pickupSlotKey(p.date, p.window), entity: "pickupSlot", ...p })),
    // Each order as its state and its content item (functions/store/order-items.ts).
    ...fixture.orders.flatMap(({ id, ...order }) => orderItemsOf({ orderId: id, ...order }, sellers.get(order.sellerId)?.name)),
  ];
}

/**
 * Writes items in batches of 25, resending whatever DynamoDB leaves unprocessed, `parallel` batches at a time
 * (the demo is some 4,000 items; an idle DynamoDB Local takes parallel batches faster).
 */
export async function writeItems(deps: StoreDeps, items: Record<string, unknown>[], parallel = 8): Promise<void> {
  const share = Math.ceil(items.length / parallel / 25) * 25 || 25;
  const slices = Array.from({ length: Math.ceil(items.length / share) }, (_, i) => items.slice(i * share, (i + 1) * share));
  await Promise.all(slices.map((slice) => writeBatches(deps, slice)));
}

async function writeBatches(deps: StoreDeps, items: Record<string, unknown>[]): Promise<void> {
  for (let i = 0; i < items.length; i += 25) {
    let requests = items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } }));
    for (let attempt = 0; requests.length > 0; attempt++) {
      if (attempt > 8) throw new Error(`DynamoDB left ${requests.length} items unprocessed after ${attempt} attempts`);
      if (attempt > 0) await new Promise((r) => setTimeout(r, 2 ** attempt * 10));
      const { UnprocessedItems } = await deps.doc.send(new BatchWriteCommand({ RequestItems: { [deps.tables.orders]: requests } }));
      requests = (UnprocessedItems?.[deps.tables.orders] ?? []) as typeof requests;
    }
  }
}

/** Writes a validated fixture; returns how many entries of each kind were written. */
export async function writeFixture(deps: StoreDeps, fixture: Fixture): Promise<Record<string, number>> {
  await writeItems(deps, fixtureItems(fixture));
  return Object.fromEntries(Object.entries(fixture).map(([k, v]) => [k, (v as unknown[]).length]));
}

/** Validates and loads a fixture; returns how many entries of each kind were written. */
export async function loadFixture(deps: StoreDeps, input: unknown): Promise<Record<string, number>> {
  return writeFixture(deps, parseFixture(input));
}
