import { addDays } from "#core/days";
import { InvalidInputError } from "#core/errors";
import type { Order, OrderStatus } from "#core/order";
import { mayAccessOrder, type Principal } from "#core/principal";

/** contract §5: a date range covers at most this many days, both ends included. */
export const maxDateRangeDays = 92;

/** What search_orders takes, once its schema has checked it (functions/contract/read-schemas.ts is held to this type). */
export interface SearchOrdersInput {
  /** The customer's account e-mail address. */
  email?: string;
  /** A full order id, or 3 to 5 consecutive digits of one, with or without the SU- prefix. */
  orderId?: string;
  /** Days on which the orders were placed (or delivered), both ends included; at most `maxDateRangeDays`. */
  dateRange?: { dateField: "placed" | "delivered"; from: string; to: string };
  limit: number;
}

/** One order, enough to recognise it. */
export interface OrderSummary {
  orderId: string;
  status: OrderStatus;
  placedAt: string;
  deliveredAt: string | null;
  sellerName: string;
  /** The first three items' titles. */
  itemTitles: string[];
  totalCents: number;
  currency: string;
}

export interface SearchOrdersOutput {
  /** Newest first. */
  orders: OrderSummary[];
  /** More orders matched than the limit returned. */
  truncated: boolean;
}

/** The digits to search for: a full id's five, or the fragment's 3–4. */
export function orderIdDigits(value: string): string {
  return value.replace(/^SU-/, "");
}

/** The stored fields a search result is made from (the indexes project these). */
export type OrderSummaryRecord = Pick<Order, "orderId" | "customerId" | "sellerId" | "status" | "placedAt" | "deliveredAt" | "currency"> & {
  /** The first three lines' titles, as `itemTitles` in the result. */
  itemTitles: string[];
  totalCents: number;
  /** Denormalised onto the order when it is written; the seller is read only when it is missing. */
  sellerName?: string;
};

/** Days, both included, as YYYY-MM-DD. */
export interface DayRange {
  from: string;
  to: string;
}

/** Orders newest first (by placedAt, then id), read lazily so a search stops as soon as it has enough. */
export type OrderStream = AsyncIterable<OrderSummaryRecord>;

/** Where search_orders finds candidates; the store implements each with an index, never a Scan. */
export interface OrderSearchSource {
  orderById(orderId: string): Promise<OrderSummaryRecord | undefined>;
  customerIdsWithEmail(email: string): Promise<string[]>;
  /**
   * `exactly`: given when every order the stream yields matches the search (the index alone decides it), so the
   * first `exactly` orders are all the search will take: the store reads that many, not a full page.
   */
  ordersOfCustomer(customerId: string, placed: DayRange | undefined, exactly?: number): OrderStream;
  /** One stream per place the digits may sit in a five-digit id; together they hold every order containing them. */
  ordersWithIdDigits(digits: string, placed: DayRange | undefined): OrderStream[];
  /**
   * One stream per month the range touches, of the seller's orders placed (or delivered) in that month, each
   * newest placed first; together they hold every order of the seller placed (delivered) in the range.
   * `exactly` as for ordersOfCustomer.
   */
  ordersOfSeller(sellerId: string, dateField: "placed" | "delivered", range: DayRange, exactly?: number): OrderStream[];
  sellerName(sellerId: string): Promise<string | undefined>;
}

/**
 * search_orders — which order is the person talking about, from a fragment.
 * Input: email, orderId (full id or 3+ digits, anywhere in the id), dateRange on placed or delivered days;
 * criteria combine. limit 1–20. Output: matching orders newest first, and whether the limit cut them off.
 * Primary course: a customer searches their own orders (one Query of their partition); support searches by
 * e-mail (the e-mail's customer, then that customer's orders) or by id digits (the id-digits indexes); a seller
 * searches the orders it sold by id digits (the id-digits indexes, kept to its own orders before anything is
 * counted) or by days (its seller-index partitions of the months in range). A full id is one GetItem.
 * Alternatives: support with neither email nor orderId → INVALID_INPUT (no bulk listing by date); a seller with
 * an email → INVALID_INPUT (a seller does not look buyers up); a customer naming someone else's e-mail or order
 * id, or a seller another seller's order id, simply finds nothing of theirs.
 */
export async function searchOrders(source: OrderSearchSource, input: SearchOrdersInput, principal: Principal): Promise<SearchOrdersOutput> {
  const digits = input.orderId === undefined ? undefined : orderIdDigits(input.orderId);
  if (principal.kind === "support" && input.email === undefined && digits === undefined) {
    throw new InvalidInputError([
      {
        path: "",
        message:
          "Searching all customers' orders needs an email or an orderId (the full id or 3+ of its digits): a date range alone would list everyone's orders. Add the customer's e-mail address or the part of the order id they remember; keep dateRange to narrow it.",
      },
    ]);
  }
  if (principal.kind === "seller" && input.email !== undefined) {
    throw new InvalidInputError([
      {
        path: "email",
        message:
          "A seller searches the orders it sold by orderId (the full id or 3+ of its digits) or by dateRange ({dateField: placed or delivered, from, to}), not by the buyer's e-mail address: buyers are not looked up by e-mail. Leave email out and give the order id digits or the days instead.",
      },
    ]);
  }
  const range = input.dateRange && { from: input.dateRange.from, to: input.dateRange.to };
  const placed = input.dateRange?.dateField === "placed" ? range : undefined;
  const matches = (order: OrderSummaryRecord) =>
    mayAccessOrder(principal, order) &&
    (digits === undefined || order.orderId.slice(3).includes(digits)) &&
    (input.dateRange === undefined ||
      onDayWithin(input.dateRange.dateField === "placed" ? order.placedAt : order.deliveredAt, input.dateRange));
  const want = input.limit + 1;
  // A customer's partition, narrowed by placed days in the key: without id digits or delivered days to filter
  // by, and with access given by the partition itself, its first `want` orders are the answer.
  const exactly = digits === undefined && input.dateRange?.dateField !== "delivered" ? want : undefined;

  let found: OrderSummaryRecord[];
  if (digits?.length === 5) {
    // A full id: one GetItem; the e-mail, if given too, must be the order's customer's.
    const [order, owners] = await Promise.all([
      source.orderById(`SU-${digits}`),
      input.email === undefined ? undefined : source.customerIdsWithEmail(input.email),
    ]);
    found = order && matches(order) && (!owners || owners.includes(order.customerId)) ? [order] : [];
  } else if (principal.kind === "customer") {
    // Only ever the caller's own partition. An e-mail that is not theirs matches none of their orders.
    const [owners, own] = await Promise.all([
      input.email === undefined ? undefined : source.customerIdsWithEmail(input.email),
      take(source.ordersOfCustomer(principal.customerId, placed, exactly), matches, want),
    ]);
    found = !owners || owners.includes(principal.customerId) ? own : [];
  } else if (principal.kind === "seller" && digits === undefined && input.dateRange && range) {
    // Only the seller's own partitions: another seller's orders are never read, so they cannot be counted.
    const streams = source.ordersOfSeller(
      principal.sellerId,
      input.dateRange.dateField,
      range,
      input.dateRange.dateField === "placed" ? want : undefined,
    );
    found = (await Promise.all(streams.map((stream) => take(stream, matches, want)))).flat();
  } else if (input.email !== undefined) {
    const owners = await source.customerIdsWithEmail(input.email);
    found = (
      await Promise.all(owners.map((customerId) => take(source.ordersOfCustomer(customerId, placed, exactly), matches, want)))
    ).flat();
  } else {
    // Support, or a seller, by id digits. `matches` keeps a seller to its own orders before any is taken, so
    // another seller's orders in the same partitions move neither the count nor `truncated`.
    found = (await Promise.all(source.ordersWithIdDigits(digits as string, placed).map((stream) => take(stream, matches, want)))).flat();
  }

  const ordered = newestFirst(found);
  const page = ordered.slice(0, input.limit);
  return { orders: await Promise.all(page.map((order) => summaryOf(source, order))), truncated: ordered.length > input.limit };
}

/** Whether a timestamp's UTC day lies in the range, both ends included. Null (not delivered yet) never does. */
export function onDayWithin(timestamp: string | null, range: DayRange): boolean {
  // ISO timestamps compare as strings: every moment of `to` sorts before the day after it.
  return timestamp !== null && timestamp >= range.from && timestamp < addDays(range.to, 1);
}

/** Distinct orders, newest placed first; the id breaks ties so the order is stable. */
export function newestFirst(orders: OrderSummaryRecord[]): OrderSummaryRecord[] {
  const unique = new Map(orders.map((o) => [o.orderId, o]));
  return [...unique.values()].sort((a, b) =>
    a.placedAt === b.placedAt ? b.orderId.localeCompare(a.orderId) : b.placedAt.localeCompare(a.placedAt),
  );
}

/** The first `count` matches of a stream; stops reading (and paging) as soon as it has them. */
export async function take(
  stream: OrderStream,
  matches: (order: OrderSummaryRecord) => boolean,
  count: number,
): Promise<OrderSummaryRecord[]> {
  const taken: OrderSummaryRecord[] = [];
  if (count <= 0) return taken;
  for await (const order of stream) {
    if (!matches(order)) continue;
    taken.push(order);
    if (taken.length >= count) break;
  }
  return taken;
}

async function summaryOf(source: OrderSearchSource, order: OrderSummaryRecord): Promise<OrderSummary> {
  return {
    orderId: order.orderId,
    status: order.status,
    placedAt: order.placedAt,
    deliveredAt: order.deliveredAt ?? null,
    sellerName: order.sellerName ?? (await source.sellerName(order.sellerId)) ?? order.sellerId,
    itemTitles: order.itemTitles.slice(0, 3),
    totalCents: order.totalCents,
    currency: order.currency,
  };
}
