import { GetCommand, QueryCommand, type QueryCommandInput } from "@aws-sdk/lib-dynamodb";
import type { Json } from "#core/change";
import { addDays } from "#core/days";
import { InvalidInputError } from "#core/errors";
import { type GetOrderInput, getOrder, type OrderReader } from "#core/get-order";
import type { Principal } from "#core/principal";
import {
  type DayRange,
  maxDateRangeDays,
  type OrderSearchSource,
  type OrderStream,
  type OrderSummaryRecord,
  type SearchOrdersInput,
  searchOrders,
} from "#core/search-orders";
import type { StoreDeps } from "#store/client";
import { Expression } from "#store/expression";
import {
  customerIdOfKey,
  customerIndexKeys,
  customerOrdersPartition,
  idDigitsPartition,
  orderKey,
  sellerOrdersPartition,
} from "#store/keys";
import { readOrder, summaryOf } from "#store/order-items";
import type { Charge, OrderItem } from "#core/order";
import { sellerWithPolicy } from "#store/sellers";
import {
  customerIndex,
  type IndexDesign,
  idDigitsIndexes,
  orderIndexAt,
  orderSummaryAttributes,
  previousLayoutSummaryAttributes,
  sellerIndexes,
} from "#store/table-design";

/** Items per Query page: a customer's orders, or one id-digits partition (≤ 100 orders), in one request. */
const pageSize = 100;

/**
 * get_order against the store. Warm, one request: a consistent GetItem of the order's state when this function
 * holds its content from an earlier read, otherwise a consistent Query of its partition, which reads its state and
 * its content (functions/store/order-items.ts; the state's version is what the next change will be conditioned
 * on), with the seller and its resolved policy from sellerWithPolicy's 60 s cache. Cold, two sequential: then one
 * BatchGetItem fetches seller, supplement and defaults.
 */
export async function getOrderFromStore(deps: StoreDeps, input: GetOrderInput, principal: Principal): Promise<{ body: Json }> {
  return { body: (await getOrder(orderReader(deps), input, principal, deps.now())) as unknown as Json };
}

/** search_orders against the store: GetItem for a full id, otherwise Queries of the indexes; never a Scan. */
export async function searchOrdersInStore(deps: StoreDeps, input: SearchOrdersInput, principal: Principal): Promise<{ body: Json }> {
  return { body: (await searchOrders(orderSearchSource(deps), input, principal)) as unknown as Json };
}

export function orderReader(deps: StoreDeps): OrderReader {
  return {
    order: (orderId) => readOrder(deps, orderId),
    sellerWithPolicy: (sellerId) => sellerWithPolicy(deps, sellerId),
  };
}

export function orderSearchSource(deps: StoreDeps): OrderSearchSource {
  const summary = new Expression();
  const projection = [...orderSummaryAttributes, ...previousLayoutSummaryAttributes].map((attribute) => summary.name(attribute)).join(", ");
  /** What a Query of an index may ask for: what the index projects (a previous one, while a table moves, projects less). */
  const projectionOf = (index: IndexDesign) => {
    const names = new Expression();
    return { ProjectionExpression: (index.projection as readonly string[]).map((a) => names.name(a)).join(", "), names: names.names };
  };

  /** Newest-first pages of one index partition, placed days narrowed by the sort key where given. */
  function queryIndex(
    indexName: string,
    partitionKey: string,
    partition: string,
    placed: DayRange | undefined,
    firstPage = pageSize,
  ): OrderStream {
    const expr = new Expression();
    // While a deployed table moves to the summary indexes, the one this search has at that step (table-design.ts).
    const index = orderIndexAt(indexName, deps.orderIndexStep);
    const { ProjectionExpression, names } = projectionOf(index);
    const keyCondition = [`${expr.name(partitionKey)} = ${expr.value(partition)}`];
    // GSI1SK is <placedAt>#<orderId>: every key of day `to` sorts below the day after it.
    if (placed) keyCondition.push(`${expr.name("GSI1SK")} BETWEEN ${expr.value(placed.from)} AND ${expr.value(addDays(placed.to, 1))}`);
    return queryPages(
      deps,
      {
        TableName: deps.tables.orders,
        IndexName: index.indexName,
        KeyConditionExpression: keyCondition.join(" AND "),
        ProjectionExpression,
        ExpressionAttributeNames: { ...expr.names, ...names },
        ExpressionAttributeValues: expr.values,
        ScanIndexForward: false,
      },
      Math.min(firstPage, pageSize),
    );
  }

  return {
    async orderById(orderId) {
      const { Item } = await deps.doc.send(
        new GetCommand({
          TableName: deps.tables.orders,
          Key: orderKey(orderId),
          ProjectionExpression: projection,
          ExpressionAttributeNames: summary.names,
        }),
      );
      return Item && summaryRecordOf(Item);
    },
    async customerIdsWithEmail(email) {
      const expr = new Expression();
      const { Items } = await deps.doc.send(
        new QueryCommand({
          TableName: deps.tables.orders,
          IndexName: "byEmail",
          KeyConditionExpression: `${expr.name("GSI2PK")} = ${expr.value(customerIndexKeys({ email }).GSI2PK)}`,
          ...expr.attributes(),
        }),
      );
      return (Items ?? []).map((item) => customerIdOfKey(item as { PK: string }));
    },
    ordersOfCustomer: (customerId, placed, exactly) =>
      queryIndex(customerIndex.indexName, customerIndex.partitionKey, customerOrdersPartition(customerId), placed, exactly),
    ordersWithIdDigits(digits, placed) {
      // A fragment of n digits can start at positions 0 … 5 − n; its first three digits are the partition there.
      return idDigitsIndexes
        .filter((index) => index.firstDigit <= 5 - digits.length)
        .map((index) => queryIndex(index.indexName, index.partitionKey, idDigitsPartition(digits.slice(0, 3)), placed));
    },
    ordersOfSeller(sellerId, dateField, range, exactly) {
      const index = sellerIndexes[dateField];
      // Placed days narrow the sort key; delivered days are not in it, so those orders are filtered as they come.
      return monthsOf(range).map((month) =>
        queryIndex(
          index.indexName,
          index.partitionKey,
          sellerOrdersPartition(sellerId, dateField, month),
          dateField === "placed" ? range : undefined,
          exactly,
        ),
      );
    },
    sellerName: async (sellerId) => (await sellerWithPolicy(deps, sellerId))?.seller.name,
  };
}

/**
 * A search result's record from an index entry (or the state item): its summary as stored, or for an order still in
 * the previous layout, made from the lines and charges it holds.
 */
function summaryRecordOf(item: Record<string, unknown>): OrderSummaryRecord {
  const { items, charges, ...record } = item;
  return (
    Array.isArray(record.itemTitles) ? record : { ...record, ...summaryOf((items ?? []) as OrderItem[], (charges ?? []) as Charge[]) }
  ) as OrderSummaryRecord;
}

/**
 * The items of a Query, page after page, fetched only as they are consumed: `firstPage` items in the first
 * request (what the consumer is known to need), then full pages.
 */
async function* queryPages(deps: StoreDeps, input: QueryCommandInput, firstPage: number): AsyncGenerator<OrderSummaryRecord> {
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  let Limit = firstPage;
  do {
    const page = await deps.doc.send(new QueryCommand({ ...input, Limit, ...(ExclusiveStartKey ? { ExclusiveStartKey } : {}) }));
    for (const item of page.Items ?? []) yield summaryRecordOf(item);
    ExclusiveStartKey = page.LastEvaluatedKey;
    Limit = pageSize;
  } while (ExclusiveStartKey);
}

/**
 * A range of at most 92 days touches at most five months: two partial ones at its ends and, a month being at least
 * 28 days, at most ⌊(92 − 2) / 28⌋ = 3 whole ones between.
 */
const maxMonthsOfARange = 2 + Math.floor((maxDateRangeDays - 2) / 28);

/** A `YYYY-MM…` month as a number that counts months, so the next month is one more whatever its year. */
const monthNumber = (day: string) => Number(day.slice(0, 4)) * 12 + Number(day.slice(5, 7)) - 1;
const monthText = (n: number) => `${String(Math.floor(n / 12)).padStart(4, "0")}-${String((n % 12) + 1).padStart(2, "0")}`;

/**
 * The months (`YYYY-MM`, UTC) a range of days touches, first to last: at most five for the 92 days a search may
 * span. Counted on numbers: as text, the month after 9999-12 would sort before it. A longer range than the schema
 * lets through is refused here rather than fanned out, one index query per month.
 */
export function monthsOf(range: DayRange): string[] {
  const first = monthNumber(range.from);
  const count = monthNumber(range.to) - first + 1;
  if (!(count >= 1 && count <= maxMonthsOfARange)) {
    throw new InvalidInputError([
      {
        path: "dateRange",
        message: `dateRange from ${range.from} to ${range.to} does not fit in ${maxDateRangeDays} days (${maxMonthsOfARange} months at most); give from ≤ to, at most ${maxDateRangeDays} days apart, and search the rest separately.`,
      },
    ]);
  }
  return Array.from({ length: count }, (_, i) => monthText(first + i));
}
