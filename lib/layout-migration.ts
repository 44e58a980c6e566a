import { TransactionCanceledException } from "@aws-sdk/client-dynamodb";
import { GetCommand, QueryCommand, ScanCommand, TransactWriteCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { linesOf, replacementsOf } from "#core/item-eligibility";
import type { Charge, OrderItem } from "#core/order";
import type { StoreDeps } from "#store/client";
import { activityPrefix, historyLinks, type ItemKey, orderContentKey, orderKey } from "#store/keys";
import { contentAttributes, lastChangeOf, linkOf, placedContentVersion, summaryOf } from "#store/order-items";

/**
 * The layout migration: moves an orders table written by the previous layout to the present one, in place, while
 * the service runs (docs/deploy.md says when in a deploy to run it: `npm run migrate-layout`).
 *
 * Per order, in its own partition:
 * - **Split.** An order in the previous layout is one item holding everything. Its content item is written
 *   (its own lines, charges, internal fields: functions/store/order-items.ts) and its state item loses those and
 *   gains the search summary, in one transaction conditioned on the version read: a change that lands meanwhile
 *   makes it read the order again. Until then the service reads the one item as it is.
 * - **History.** Each activity entry of the previous layout (`ACTIVITY#<version>`) is linked into the order's
 *   history (functions/store/operations.ts, `readActivity`), in version order with the records of changes made
 *   since the new code ran, and the state names the newest as its last change. The entries stay where they are.
 *
 * Idempotent: an order already split and linked is read and left alone, so running it again, whole or in part,
 * changes nothing more. Resumable: the table is scanned in segments, and after every page `onProgress` gets where
 * each segment has got to; started from that, it does the rest. Concurrent changes are safe: every write of it is
 * conditioned on what it read, and a change conditions on the state's last change as it read it.
 */

/** How far each segment of the scan has got: the key to go on from, or done. */
export type ScanProgress = Array<{ lastKey?: Record<string, unknown>; done: boolean }>;

export interface MigrationCounts {
  /** State items of orders looked at. */
  orders: number;
  /** Orders split from the previous layout's one item. */
  split: number;
  /** Orders whose history gained links to its previous layout's activity entries. */
  linked: number;
  /** Attempts read again because a change landed between a read and a write. */
  retried: number;
}

export interface MigrationOptions {
  /** Parallel scan segments (DynamoDB's TotalSegments); 1 to 1,000,000. */
  segments: number;
  /** Where to go on from (from an earlier run's `onProgress`); from the start when absent. */
  progress?: ScanProgress;
  /** Called after every page of every segment, with the progress so far and the counts. */
  onProgress?: (progress: ScanProgress, counts: MigrationCounts) => void | Promise<void>;
  /** Items per scan page (DynamoDB's Limit). */
  pageSize?: number;
}

const maxAttempts = 10;
const stateSortKey = orderKey("").SK;

/** Migrates every order of the table; returns what it did. */
export async function migrateLayout(deps: StoreDeps, options: MigrationOptions): Promise<MigrationCounts> {
  const { segments } = options;
  if (!Number.isInteger(segments) || segments < 1 || segments > 1_000_000)
    throw new Error(`segments is a whole number from 1 to 1,000,000, not ${segments}.`);
  const progress: ScanProgress = options.progress ?? Array.from({ length: segments }, () => ({ done: false }));
  if (progress.length !== segments)
    throw new Error(
      `The progress given was made with ${progress.length} segments, not ${segments}: go on with --segments ${progress.length}, or start again without it.`,
    );
  const counts: MigrationCounts = { orders: 0, split: 0, linked: 0, retried: 0 };
  await Promise.all(
    progress.map(async (segment, index) => {
      while (!segment.done) {
        const page = await deps.doc.send(
          new ScanCommand({
            TableName: deps.tables.orders,
            Segment: index,
            TotalSegments: segments,
            ConsistentRead: true,
            FilterExpression: "SK = :state",
            ExpressionAttributeValues: { ":state": stateSortKey },
            ProjectionExpression: "orderId",
            ...(options.pageSize ? { Limit: options.pageSize } : {}),
            ...(segment.lastKey ? { ExclusiveStartKey: segment.lastKey } : {}),
          }),
        );
        for (const item of page.Items ?? []) {
          counts.orders++;
          const done = await migrateOrder(deps, String(item.orderId));
          counts.split += Number(done.split);
          counts.linked += Number(done.linked);
          counts.retried += done.retried;
        }
        segment.lastKey = page.LastEvaluatedKey;
        segment.done = page.LastEvaluatedKey === undefined;
        await options.onProgress?.(progress, { ...counts });
      }
    }),
  );
  return counts;
}

/** Splits one order and links its history, reading it again after every write until nothing is left to do. */
export async function migrateOrder(deps: StoreDeps, orderId: string): Promise<{ split: boolean; linked: boolean; retried: number }> {
  const done = { split: false, linked: false, retried: 0 };
  for (let attempt = 1; attempt <= maxAttempts; attempt++) {
    const { Items = [] } = await deps.doc.send(
      new QueryCommand({
        TableName: deps.tables.orders,
        KeyConditionExpression: "PK = :pk",
        ExpressionAttributeValues: { ":pk": orderKey(orderId).PK },
        ConsistentRead: true,
      }),
    );
    const state = Items.find((item) => item.SK === stateSortKey);
    if (!state) return done;
    try {
      if (Array.isArray(state.items)) {
        await split(deps, orderId, state);
        done.split = true;
        continue;
      }
      const entries = Items.filter((item) => String(item.SK).startsWith(activityPrefix) && versionOf(item) <= Number(state.version));
      if (entries.length === 0 || !(await linkHistory(deps, orderId, state, entries))) return done;
      done.linked = true;
    } catch (error) {
      if (!(error instanceof TransactionCanceledException || (error as Error).name === "ConditionalCheckFailedException")) throw error;
      done.retried++;
    }
  }
  throw new Error(`Order ${orderId} kept changing while it was migrated (${maxAttempts} attempts); run the migration again.`);
}

/** One transaction: the content item written, the state item trimmed to the state and its summary. */
async function split(deps: StoreDeps, orderId: string, state: Record<string, unknown>): Promise<void> {
  const items = state.items as OrderItem[];
  const charges = (Array.isArray(state.charges) ? state.charges : []) as Charge[];
  // Replacement lines were stored among the lines then; now they are made from the state's records.
  const own = linesOf(items, []);
  const summary = summaryOf(linesOf(own, replacementsOf(state)), charges);
  const internal = state.internal ?? {};
  // The version an order placed now with this content would have (functions/store/order-items.ts).
  const contentVersion = placedContentVersion({ items: own, charges, internal });
  await deps.doc.send(
    new TransactWriteCommand({
      TransactItems: [
        {
          Put: {
            TableName: deps.tables.orders,
            Item: { ...orderContentKey(orderId), entity: "orderContent", orderId, items: own, charges, internal, contentVersion },
          },
        },
        {
          Update: {
            TableName: deps.tables.orders,
            Key: orderKey(orderId),
            UpdateExpression: `SET #itemTitles = :itemTitles, #totalCents = :totalCents, #contentVersion = :contentVersion REMOVE ${contentAttributes.map((a) => `#${a}`).join(", ")}`,
            ConditionExpression: "#version = :version AND attribute_exists(#items)",
            ExpressionAttributeNames: {
              "#itemTitles": "itemTitles",
              "#totalCents": "totalCents",
              "#contentVersion": "contentVersion",
              "#version": "version",
              ...Object.fromEntries(contentAttributes.map((a) => [`#${a}`, a])),
            },
            ExpressionAttributeValues: {
              ":itemTitles": summary.itemTitles,
              ":totalCents": summary.totalCents,
              ":contentVersion": contentVersion,
              ":version": state.version,
            },
          },
        },
      ],
    }),
  );
}

const versionOf = (item: Record<string, unknown>) => Number(item.entity === "operation" ? item.orderVersion : item.version);
const sameKey = (a: ItemKey | undefined, b: ItemKey | undefined) => a?.PK === b?.PK && a?.SK === b?.SK;
const keyOf = (item: Record<string, unknown>): ItemKey => ({ PK: String(item.PK), SK: String(item.SK) });

/**
 * Links the previous layout's activity entries into the order's history: every entry, and every change recorded
 * since, names the one of the next lower version as the one before, and the state names the newest. Returns whether
 * it wrote anything. The state's link is written only if it is still what was read (a change conditions on it too).
 */
async function linkHistory(
  deps: StoreDeps,
  orderId: string,
  state: Record<string, unknown>,
  entries: Record<string, unknown>[],
): Promise<boolean> {
  // The changes recorded since the new code ran: from the state's last change back to the first without a link.
  const chain: Record<string, unknown>[] = [];
  const seen = new Set<string>();
  for (let link = lastChangeOf(state); link && !seen.has(`${link.PK}\u0000${link.SK}`); ) {
    seen.add(`${link.PK}\u0000${link.SK}`);
    const { Item } = await deps.doc.send(new GetCommand({ TableName: deps.tables.orders, Key: link, ConsistentRead: true }));
    if (!Item) break;
    chain.push(Item);
    link = linkOf(Item[historyLinks.previous]);
  }
  const history = [...new Map([...entries, ...chain].map((item) => [`${item.PK}\u0000${item.SK}`, item])).values()].sort(
    (a, b) => versionOf(a) - versionOf(b),
  );
  let wrote = false;
  for (const [i, item] of history.entries()) {
    const wanted = i > 0 ? keyOf(history[i - 1]!) : undefined;
    if (sameKey(linkOf(item[historyLinks.previous]), wanted)) continue;
    await deps.doc.send(
      new UpdateCommand({
        TableName: deps.tables.orders,
        Key: keyOf(item),
        UpdateExpression: wanted ? "SET #previous = :previous" : "REMOVE #previous",
        ConditionExpression: "attribute_exists(PK)",
        ExpressionAttributeNames: { "#previous": historyLinks.previous },
        ...(wanted ? { ExpressionAttributeValues: { ":previous": wanted } } : {}),
      }),
    );
    wrote = true;
  }
  const newest = keyOf(history.at(-1)!);
  const current = lastChangeOf(state);
  if (!sameKey(current, newest)) {
    await deps.doc.send(
      new UpdateCommand({
        TableName: deps.tables.orders,
        Key: orderKey(orderId),
        UpdateExpression: "SET #last = :newest",
        ConditionExpression: current ? "#version = :version AND #last = :current" : "#version = :version AND attribute_not_exists(#last)",
        ExpressionAttributeNames: { "#last": historyLinks.last, "#version": "version" },
        ExpressionAttributeValues: { ":newest": newest, ":version": state.version, ...(current ? { ":current": current } : {}) },
      }),
    );
    wrote = true;
  }
  return wrote;
}
