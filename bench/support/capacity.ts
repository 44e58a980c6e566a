/**
 * What a call costs DynamoDB in capacity units, two ways for every request it makes:
 *
 * - **DynamoDB Local's**: every request is sent with `ReturnConsumedCapacity: INDEXES` and the answer's
 *   ConsumedCapacity is kept (table and each index apart).
 * - **DynamoDB's documented sizing**, computed here from the items themselves, read with a plain client just
 *   before and just after the request (read-only, so they change nothing the call meets): "DynamoDB read and
 *   write operations" and "Item sizes and formats" in the Amazon DynamoDB Developer Guide, and its rules for
 *   global secondary index writes. Reads: the item size rounded up to 4 KB, one unit strongly consistent, half
 *   eventually consistent, a missing item the minimum; BatchGetItem item by item; Query and Scan the sum of the
 *   items they evaluate (before any filter), rounded up once. Writes: the larger of the item before and after,
 *   rounded up to 1 KB, at least one unit; a conditional write that fails costs the same, by the existing item. Transactional
 *   writes: two units per item per KB, for every item of the transaction (ConditionCheck included: AWS's pages do
 *   not say so in as many words; measured against DynamoDB it costs 2 WCU, martinhicks.dev, "What a conditional
 *   DynamoDB transaction actually costs"). Index writes: none when the write changes neither the index's key nor
 *   an attribute it projects; one (the entry's size, larger of before and after) when it adds, removes or updates
 *   an entry; two when it moves the entry to another key.
 *
 * The section says, request kind by request kind, where the two agree (DynamoDB Local reports that kind
 * faithfully, and its figure is used) and where they do not (the documented one is used).
 */
import {
  type AttributeValue,
  type ConsumedCapacity,
  type DynamoDBClient,
  GetItemCommand,
  QueryCommand,
  ScanCommand,
} from "@aws-sdk/client-dynamodb";
import type { TableDesign } from "#store/table-design";

type Item = Record<string, AttributeValue>;

const utf8 = (text: string) => Buffer.byteLength(text, "utf8");

/** A number's stored size: about one byte per two significant digits, plus one (leading and trailing zeros trimmed). */
function numberSize(text: string): number {
  const digits = text.replace(/^[-+]/, "").replace(/e.*$/i, "").replace(".", "").replace(/^0+/, "").replace(/0+$/, "");
  return Math.ceil(Math.max(1, digits.length) / 2) + 1;
}

/** A value's size as "Item sizes and formats" counts it (without its name). */
export function valueSize(value: AttributeValue): number {
  if (value.S !== undefined) return utf8(value.S);
  if (value.N !== undefined) return numberSize(value.N);
  if (value.B !== undefined) return value.B.length;
  if (value.BOOL !== undefined || value.NULL !== undefined) return 1;
  if (value.SS !== undefined) return value.SS.reduce((sum, s) => sum + utf8(s), 0);
  if (value.NS !== undefined) return value.NS.reduce((sum, n) => sum + numberSize(n), 0);
  if (value.BS !== undefined) return value.BS.reduce((sum, b) => sum + b.length, 0);
  // A list or map: 3 bytes, and one more per element (a map's element also counts its name).
  if (value.L !== undefined) return 3 + value.L.reduce((sum, v) => sum + valueSize(v) + 1, 0);
  if (value.M !== undefined) return 3 + Object.entries(value.M).reduce((sum, [name, v]) => sum + utf8(name) + valueSize(v) + 1, 0);
  throw new Error(`A value of no type DynamoDB stores: ${JSON.stringify(value)}`);
}

/** An item's size: every attribute's name and value. */
export function itemSize(item: Item | undefined): number {
  if (!item) return 0;
  return Object.entries(item).reduce((sum, [name, value]) => sum + utf8(name) + valueSize(value), 0);
}

const KB = 1024;
const units = (bytes: number, unit: number) => Math.max(1, Math.ceil(bytes / unit));

/** Documented units of one request, split the way ConsumedCapacity is. */
export interface Units {
  read: number;
  /** Writes to the table. */
  write: number;
  /** Writes to its global secondary indexes. */
  indexWrite: number;
}

const none = (): Units => ({ read: 0, write: 0, indexWrite: 0 });

export interface MeasuredRequest {
  command: string;
  /** A refusal (a failed condition), which is part of the design. */
  error?: string;
  /** What DynamoDB Local answered, or undefined when it said nothing (a refused request carries none). */
  local?: Units;
  documented: Units;
  /** For a transaction: what it held, e.g. `Update, Put, Put`. */
  parts?: string;
  /** Each item a write wrote or checked: what it is (its key's prefix, `ORDER#…/ACTIVITY#…`) and its bytes, the larger of before and after. */
  items?: Array<{ what: string; bytes: number }>;
}

/** Local's ConsumedCapacity in the same split: reads for read requests, table and index writes for writes. */
function localUnits(command: string, consumed: ConsumedCapacity | ConsumedCapacity[] | undefined): Units | undefined {
  if (!consumed) return undefined;
  const all = Array.isArray(consumed) ? consumed : [consumed];
  const reading = ["GetItem", "BatchGetItem", "Query", "Scan", "TransactGetItems"].includes(command);
  const sum = (f: (c: ConsumedCapacity) => number) => all.reduce((total, c) => total + f(c), 0);
  const indexesOf = (c: ConsumedCapacity) => Object.values(c.GlobalSecondaryIndexes ?? {}).reduce((s, i) => s + (i.CapacityUnits ?? 0), 0);
  const indexes = sum(indexesOf);
  const table = sum((c) => c.Table?.CapacityUnits ?? (c.CapacityUnits ?? 0) - indexesOf(c));
  return reading ? { read: table + indexes, write: 0, indexWrite: 0 } : { read: 0, write: table, indexWrite: indexes };
}

/** The entry an item has in an index, or undefined when it lacks the index's keys (a sparse index). */
function indexEntry(design: TableDesign, index: TableDesign["indexes"][number], item: Item | undefined): Item | undefined {
  if (!item) return undefined;
  if (item[index.partitionKey] === undefined || (index.sortKey !== undefined && item[index.sortKey] === undefined)) return undefined;
  const keys = [design.partitionKey, design.sortKey, index.partitionKey, index.sortKey].filter((k): k is string => k !== undefined);
  const projected =
    index.projection === "ALL" ? Object.keys(item) : index.projection === "KEYS_ONLY" ? [] : [...(index.projection as readonly string[])];
  return Object.fromEntries(
    [...new Set([...keys, ...projected])].filter((k) => item[k] !== undefined).map((k) => [k, item[k] as AttributeValue]),
  );
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Index writes of one table write from `before` to `after`, by the documented rules. */
function indexWrites(design: TableDesign, before: Item | undefined, after: Item | undefined): number {
  let total = 0;
  for (const index of design.indexes) {
    const was = indexEntry(design, index, before);
    const now = indexEntry(design, index, after);
    if (!was && !now) continue;
    if (!was || !now) {
      total += units(itemSize(was ?? now), KB);
      continue;
    }
    const moved =
      !same(was[index.partitionKey], now[index.partitionKey]) || (index.sortKey && !same(was[index.sortKey], now[index.sortKey]));
    if (moved) total += units(itemSize(was), KB) + units(itemSize(now), KB);
    else if (!same(was, now)) total += units(Math.max(itemSize(was), itemSize(now)), KB);
  }
  return total;
}

interface KeyedWrite {
  table: string;
  key: Item;
  kind: "Put" | "Update" | "Delete" | "ConditionCheck";
  /** A Put's new item, as sent. */
  item?: Item;
}

/**
 * Observes clients, as the bench's RequestLog does: each request is asked for its consumed capacity and measured
 * both ways. `designs` names the design of each table by its name (for keys and index projections).
 */
export class CapacityLog {
  #recording: MeasuredRequest[] | undefined;

  constructor(
    private readonly plain: DynamoDBClient,
    private readonly designs: ReadonlyMap<string, TableDesign>,
  ) {}

  observe = (client: DynamoDBClient): void => {
    // Before serialization, so the request asks for it: the answer is unchanged otherwise.
    client.middlewareStack.add(
      (next) => async (args) => {
        if (this.#recording) (args.input as Record<string, unknown>).ReturnConsumedCapacity = "INDEXES";
        return next(args);
      },
      { step: "initialize", name: "benchCapacityAsk" },
    );
    client.middlewareStack.add(
      (next, context) => async (args) => {
        const recording = this.#recording;
        if (!recording) return next(args);
        const command = String(context.commandName).replace(/Command$/, "");
        const input = structuredClone(args.input) as Record<string, any>;
        const measured: MeasuredRequest = { command, documented: none() };
        recording.push(measured);
        const writes = this.writesOf(command, input);
        const before = await this.images(writes);
        const reads = await this.readUnits(command, input);
        try {
          const result = await next(args);
          measured.local = localUnits(
            command,
            (result.output as { ConsumedCapacity?: ConsumedCapacity | ConsumedCapacity[] }).ConsumedCapacity,
          );
          const after = await this.images(writes);
          measured.documented = { ...reads, ...this.writeUnits(command, writes, before, after, false) };
          measured.items = writes.map((w, i) => ({
            what: `${w.kind} ${Object.values(w.key)
              .map((v) => String(v.S ?? v.N ?? "").split("#")[0])
              .join("/")}`,
            bytes: Math.max(itemSize(w.item), itemSize(before[i]), itemSize(after[i])),
          }));
          return result;
        } catch (error) {
          measured.error = (error as Error).name;
          // A refused write still costs its units, by the item as it is; a cancelled transaction's items likewise.
          measured.documented = { ...reads, ...this.writeUnits(command, writes, before, before, true) };
          throw error;
        } finally {
          if (command === "TransactWriteItems") measured.parts = writes.map((w) => w.kind).join(", ");
        }
      },
      { step: "build", name: "benchCapacityMeasure" },
    );
  };

  /** Runs `work` and returns, with its result, every request it made, measured. */
  async record<T>(work: () => Promise<T>): Promise<{ result: T; requests: MeasuredRequest[] }> {
    if (this.#recording) throw new Error("CapacityLog.record does not nest");
    const requests: MeasuredRequest[] = [];
    this.#recording = requests;
    try {
      return { result: await work(), requests };
    } finally {
      this.#recording = undefined;
    }
  }

  /** The items a write request writes (or checks), with their keys. */
  private writesOf(command: string, input: Record<string, any>): KeyedWrite[] {
    const keyOf = (table: string, item: Item): Item => {
      const design = this.design(table);
      const names = [design.partitionKey, design.sortKey].filter((k): k is string => k !== undefined);
      return Object.fromEntries(names.map((k) => [k, item[k] as AttributeValue]));
    };
    switch (command) {
      case "PutItem":
        return [{ table: input.TableName, key: keyOf(input.TableName, input.Item), kind: "Put", item: input.Item }];
      case "UpdateItem":
        return [{ table: input.TableName, key: input.Key, kind: "Update" }];
      case "DeleteItem":
        return [{ table: input.TableName, key: input.Key, kind: "Delete" }];
      case "TransactWriteItems":
        return (input.TransactItems as Array<Record<string, any>>).map((part) => {
          const [kind, body] = Object.entries(part)[0] as [KeyedWrite["kind"], Record<string, any>];
          return kind === "Put"
            ? { table: body.TableName, key: keyOf(body.TableName, body.Item), kind, item: body.Item }
            : { table: body.TableName, key: body.Key, kind };
        });
      default:
        return [];
    }
  }

  private design(table: string): TableDesign {
    const design = this.designs.get(table);
    if (!design) throw new Error(`No table design for ${table}`);
    return design;
  }

  private async get(table: string, key: Item): Promise<Item | undefined> {
    return (await this.plain.send(new GetItemCommand({ TableName: table, Key: key, ConsistentRead: true }))).Item;
  }

  private images(writes: readonly KeyedWrite[]): Promise<Array<Item | undefined>> {
    return Promise.all(writes.map((w) => this.get(w.table, w.key)));
  }

  /** Documented read units of a read request, from the items it reads, fetched whole just before it. */
  private async readUnits(command: string, input: Record<string, any>): Promise<Pick<Units, "read">> {
    const factor = (consistent: boolean | undefined) => (consistent ? 1 : 0.5);
    switch (command) {
      case "GetItem": {
        const item = await this.get(input.TableName, input.Key);
        return { read: units(itemSize(item), 4 * KB) * factor(input.ConsistentRead) };
      }
      case "BatchGetItem": {
        let read = 0;
        for (const [table, request] of Object.entries(input.RequestItems as Record<string, { Keys: Item[]; ConsistentRead?: boolean }>)) {
          const items = await Promise.all(request.Keys.map((key) => this.get(table, key)));
          read += items.reduce((sum, item) => sum + units(itemSize(item), 4 * KB) * factor(request.ConsistentRead), 0);
        }
        return { read };
      }
      case "Query": {
        // The same page without its filter or projection: the items the query evaluates.
        const { FilterExpression, ProjectionExpression, Select, ReturnConsumedCapacity, ...rest } = input;
        const names = rest.ExpressionAttributeNames as Record<string, string> | undefined;
        const values = rest.ExpressionAttributeValues as Record<string, AttributeValue> | undefined;
        const used = `${rest.KeyConditionExpression ?? ""}`;
        const keyNames = names ? pick(names, used) : {};
        const keyValues = values ? pick(values, used) : {};
        const page = await this.plain.send(
          new QueryCommand({
            ...rest,
            ExpressionAttributeNames: Object.keys(keyNames).length ? keyNames : undefined,
            ExpressionAttributeValues: Object.keys(keyValues).length ? keyValues : undefined,
          } as never),
        );
        const bytes = (page.Items ?? []).reduce((sum, item) => sum + itemSize(item), 0);
        return { read: units(bytes, 4 * KB) * factor(input.ConsistentRead) };
      }
      case "Scan": {
        // The same page without its filter or projection: every item it reads, as a Query's (the layout migration's).
        const {
          FilterExpression,
          ProjectionExpression,
          Select,
          ReturnConsumedCapacity,
          ExpressionAttributeNames,
          ExpressionAttributeValues,
          ...rest
        } = input;
        const page = await this.plain.send(new ScanCommand(rest as never));
        const bytes = (page.Items ?? []).reduce((sum, item) => sum + itemSize(item), 0);
        return { read: units(bytes, 4 * KB) * factor(input.ConsistentRead) };
      }
      default:
        return { read: 0 };
    }
  }

  /** Documented write units of a write request, from its items before and after. */
  private writeUnits(
    command: string,
    writes: readonly KeyedWrite[],
    before: Array<Item | undefined>,
    after: Array<Item | undefined>,
    refused: boolean,
  ): Pick<Units, "write" | "indexWrite"> {
    const transactional = command === "TransactWriteItems" ? 2 : 1;
    let write = 0;
    let indexWrite = 0;
    for (const [i, w] of writes.entries()) {
      const was = before[i];
      const now = after[i];
      const size = w.kind === "Put" && !refused ? Math.max(itemSize(w.item), itemSize(was)) : Math.max(itemSize(was), itemSize(now));
      write += transactional * units(size, KB);
      if (!refused && w.kind !== "ConditionCheck") indexWrite += indexWrites(this.design(w.table), was, now);
    }
    return { write, indexWrite };
  }
}

/** The placeholders an expression uses, of a map of them (`:s` is not used by an expression that names `:s1`). */
function pick<T>(map: Record<string, T>, expression: string): Record<string, T> {
  const uses = (placeholder: string) =>
    new RegExp(`${placeholder.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?![A-Za-z0-9_])`).test(expression);
  return Object.fromEntries(Object.entries(map).filter(([placeholder]) => uses(placeholder)));
}
