/**
 * Model-based test (fc.commands) on DynamoDB Local: random sequences of cancel, note, return, replacement, the
 * order system's own progress / ship / deliver, and retries with reused operationIds run against a plain
 * in-memory model of one order, built from contract §3–§5 alone:
 * - statuses and which tool each admits, with the contract's NOT_ELIGIBLE reasons (REPLACEMENT_LINE included: a
 *   replacement line can be neither replaced nor returned);
 * - expectedVersion: any other version is VERSION_CONFLICT; every change is version + 1;
 * - a replay of the same operationId returns the same status and body with Idempotent-Replayed, and the status
 *   lookup tells the same outcome; the same id with other arguments or another tool is IDEMPOTENCY_KEY_REUSED;
 * - stock (OUT_OF_STOCK) and pickup capacity (the earliest date on or after the wanted one, NO_PICKUP_SLOT);
 * - who asks: each change comes from the order's customer or from its seller's user, under the same rules; a
 *   seller's cancellation or note is FORBIDDEN, recorded nowhere and changes nothing, and each caller's
 *   retries, lookups and reuses are of its own operations.
 * Where the contract leaves the choice open (which of several applicable rejections comes first; whether an item that
 * was replaced may still be returned), the model accepts each reading the contract allows and then follows the one the
 * service took. After every command the order as get_order shows it, its activity, the stock and the pickup
 * capacity are compared with the model. A divergence is counted and kept with its sequence for replay.
 */
import { DeleteCommand, QueryCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import fc from "fast-check";
import { orderKey, pickupSlotsPartition } from "#store/keys";
import {
  addDays,
  baseSellers,
  basePolicies,
  type Caller,
  customer,
  customers,
  errorShapeProblems,
  Failures,
  newOperationId,
  orderItem,
  type PartReport,
  type Reply,
  reliabilityWorld,
  seller,
  show,
  todayUtc,
  type World,
} from "#test/reliability/harness";

type Status = "placed" | "processing" | "dispatching" | "shipped" | "delivered" | "cancelled";
type Tool = "cancel_order" | "add_delivery_note" | "start_return" | "offer_replacement";
type VersionChoice = "current" | "stale" | "ahead" | "none";

interface Slot {
  date: string;
  window: string;
  capacity: number;
}

/** Who sends a change: the order's customer, or a user of the order's seller. */
type Actor = "owner" | "seller";

interface RecordedOp {
  tool: Tool;
  request: Record<string, unknown>;
  status: number;
  text: string;
  /** Whose operation it is: its retries, lookups and reuses come from the same caller. */
  by: Actor;
}

/** The whole model: one order, its SKU's stock, the pickup slots, and the operations made so far. */
export interface Model {
  orderId: string;
  /** The order's seller, whose user is the `seller` actor. */
  sellerId: string;
  status: Status;
  version: number;
  /** Days before today it was delivered; null until delivered. */
  deliveredDaysAgo: number | null;
  sellerActive: boolean;
  items: { itemId: string; replacementFor?: string }[];
  returned: Set<string>;
  replaced: Set<string>;
  returnIds: Set<string>;
  note: string | null;
  stock: number;
  slots: Slot[];
  ops: Map<string, RecordedOp>;
  /** Versions made by the tools: one activity entry each. */
  toolChanges: number;
}

interface Real {
  world: World;
  sku: string;
  today: string;
  /** How often each kind of outcome was seen, for the report. */
  tally: Map<string, number>;
}

const count = (r: Real, what: string) => r.tally.set(what, (r.tally.get(what) ?? 0) + 1);

const owner = customer("C-1001");
const windowDays = 14;
const callerOf = (actor: Actor, m: Model): Caller => (actor === "owner" ? owner : seller(m.sellerId));
/** Changes a seller may not make: FORBIDDEN whatever the order's state. */
const notForSellers = new Set<Tool>(["cancel_order", "add_delivery_note"]);

class Divergence extends Error {}

function diverge(message: string): never {
  throw new Divergence(message);
}

// ——— what the contract allows for one request ———

type Allowed = { completed: boolean; rejections: { code: string; reasons?: string[] }[] };

function versionFor(choice: VersionChoice, m: Model): number | undefined {
  switch (choice) {
    case "current":
      return m.version;
    case "stale":
      return Math.max(1, m.version - 1) === m.version ? m.version + 2 : m.version - 1;
    case "ahead":
      return m.version + 1;
    case "none":
      return undefined;
  }
}

/** The earliest slot date on or after `wanted` with capacity, and the windows on it that have some. */
function pickupFor(m: Model, wanted: string): { date: string; windows: string[] } | undefined {
  const open = m.slots.filter((s) => s.date >= wanted && s.capacity > 0).sort((a, b) => a.date.localeCompare(b.date));
  const first = open[0];
  return first && { date: first.date, windows: open.filter((s) => s.date === first.date).map((s) => s.window) };
}

function allowedOutcomes(m: Model, tool: Tool, request: Record<string, any>, today: string): Allowed {
  const rejections: Allowed["rejections"] = [];
  let soft = false;
  const reject = (code: string, ...reasons: string[]) => rejections.push(reasons.length ? { code, reasons } : { code });
  if (request.expectedVersion !== undefined && request.expectedVersion !== m.version) reject("VERSION_CONFLICT");
  const windowOpen = m.deliveredDaysAgo !== null && m.deliveredDaysAgo <= windowDays;
  const known = new Set(m.items.map((i) => i.itemId));
  const lines = new Set(m.items.filter((i) => i.replacementFor).map((i) => i.itemId));
  const deliveredOnly = () => {
    if (m.status === "cancelled") reject("NOT_ELIGIBLE", "ALREADY_CANCELLED", "NOT_DELIVERED");
    else if (m.status !== "delivered") reject("NOT_ELIGIBLE", "NOT_DELIVERED");
    else if (!windowOpen) reject("NOT_ELIGIBLE", "RETURN_WINDOW_CLOSED");
  };
  switch (tool) {
    case "cancel_order":
      if (m.status === "shipped" || m.status === "delivered") reject("NOT_ELIGIBLE", "ALREADY_SHIPPED");
      if (m.status === "cancelled") reject("NOT_ELIGIBLE", "ALREADY_CANCELLED");
      break;
    case "add_delivery_note":
      if (m.status === "cancelled") reject("NOT_ELIGIBLE", "ALREADY_CANCELLED", "DISPATCH_STARTED");
      else if (m.status !== "placed" && m.status !== "processing") reject("NOT_ELIGIBLE", "DISPATCH_STARTED");
      break;
    case "start_return": {
      deliveredOnly();
      const ids = request.itemIds as string[];
      if (ids.some((id) => !known.has(id))) reject("NOT_ELIGIBLE", "UNKNOWN_ITEM");
      if (ids.some((id) => m.returned.has(id))) reject("NOT_ELIGIBLE", "ITEM_ALREADY_RETURNED");
      if (ids.some((id) => lines.has(id))) reject("NOT_ELIGIBLE", "REPLACEMENT_LINE");
      // The contract does not say whether an item already replaced may still be returned: either reading passes.
      if (ids.some((id) => m.replaced.has(id))) {
        reject("NOT_ELIGIBLE", "ITEM_ALREADY_REPLACED");
        soft = true;
      }
      if (!pickupFor(m, (request.pickupDate as string | undefined) ?? addDays(today, 1))) reject("NO_PICKUP_SLOT");
      break;
    }
    case "offer_replacement": {
      deliveredOnly();
      const id = request.itemId as string;
      if (!known.has(id)) reject("NOT_ELIGIBLE", "UNKNOWN_ITEM");
      if (lines.has(id)) reject("NOT_ELIGIBLE", "REPLACEMENT_LINE");
      if (m.replaced.has(id)) reject("NOT_ELIGIBLE", "ITEM_ALREADY_REPLACED");
      if (m.returned.has(id)) reject("NOT_ELIGIBLE", "ITEM_ALREADY_RETURNED");
      if (!m.sellerActive) reject("SELLER_SUSPENDED");
      if (m.stock < 1) reject("OUT_OF_STOCK");
      break;
    }
  }
  const hard = rejections.length - (soft ? 1 : 0);
  return { completed: hard === 0, rejections };
}

// ——— checking a reply against the model, and applying it ———

const keysOf = (value: unknown) =>
  Object.keys((value ?? {}) as object)
    .sort()
    .join(",");

function checkAndApply(
  m: Model,
  tool: Tool,
  request: Record<string, any>,
  reply: Reply,
  today: string,
  sku: string,
  by: Actor = "owner",
): void {
  const allowed = allowedOutcomes(m, tool, request, today);
  const describe = () =>
    `${tool} ${show(request)} on ${describeModel(m)} → ${reply.status} ${show(reply.text, 600)}; the contract allows ${allowed.completed ? "completed or " : ""}${show(allowed.rejections)}`;
  if (reply.headers["idempotent-replayed"] !== undefined) diverge(`a first request came back marked as a replay: ${describe()}`);
  if (reply.status === 200) {
    if (!allowed.completed) diverge(`completed, though the contract requires a rejection: ${describe()}`);
    const body = reply.body;
    const committed = m.version + 1;
    const common =
      body?.operationId === request.operationId &&
      body?.status === "completed" &&
      body?.orderId === m.orderId &&
      body?.orderVersion === committed;
    if (!common) diverge(`the success body's common fields are wrong: ${describe()}`);
    switch (tool) {
      case "cancel_order":
        if (keysOf(body) !== "operationId,orderId,orderStatus,orderVersion,status" || body.orderStatus !== "cancelled")
          diverge(`cancel body: ${describe()}`);
        m.status = "cancelled";
        break;
      case "add_delivery_note": {
        const text = (request.deliveryNote as string).replace(/\r\n/g, "\n").normalize("NFC").trim();
        if (
          keysOf(body) !== "deliveryNote,operationId,orderId,orderVersion,status" ||
          JSON.stringify(body.deliveryNote) !== JSON.stringify({ origin: "customer", text })
        ) {
          diverge(`note body (the note as stored is ${show(text)}): ${describe()}`);
        }
        m.note = text;
        break;
      }
      case "start_return": {
        const ret = body?.return;
        const pickup = pickupFor(m, (request.pickupDate as string | undefined) ?? addDays(today, 1));
        if (keysOf(body) !== "operationId,orderId,orderVersion,return,status" || keysOf(ret) !== "itemIds,labelRef,pickup,returnId")
          diverge(`return body: ${describe()}`);
        if (JSON.stringify(ret.itemIds) !== JSON.stringify(request.itemIds)) diverge(`the return names other items: ${describe()}`);
        if (typeof ret.returnId !== "string" || ret.returnId === "" || m.returnIds.has(ret.returnId))
          diverge(`the returnId is missing or not new: ${describe()}`);
        if (typeof ret.labelRef !== "string" || ret.labelRef === "") diverge(`no label: ${describe()}`);
        if (!pickup || ret.pickup?.date !== pickup.date || !pickup.windows.includes(ret.pickup?.window))
          diverge(`pickup ${show(ret?.pickup)}, the contract wants the earliest date with capacity ${show(pickup)}: ${describe()}`);
        const slot = m.slots.find((s) => s.date === ret.pickup.date && s.window === ret.pickup.window) as Slot;
        slot.capacity -= 1;
        for (const id of request.itemIds as string[]) m.returned.add(id);
        m.returnIds.add(ret.returnId);
        break;
      }
      case "offer_replacement": {
        const rep = body?.replacement;
        if (keysOf(body) !== "operationId,orderId,orderVersion,replacement,status" || keysOf(rep) !== "itemId,replacementItemId,sku")
          diverge(`replacement body: ${describe()}`);
        if (rep.itemId !== request.itemId || rep.sku !== sku) diverge(`the replacement names another item or SKU: ${describe()}`);
        if (
          typeof rep.replacementItemId !== "string" ||
          !/^ITM-\d+$/.test(rep.replacementItemId) ||
          m.items.some((i) => i.itemId === rep.replacementItemId)
        ) {
          diverge(`the replacement line's id is not a new item id: ${describe()}`);
        }
        m.items.push({ itemId: rep.replacementItemId, replacementFor: request.itemId });
        m.replaced.add(request.itemId);
        m.stock -= 1;
        break;
      }
    }
    m.version = committed;
    m.toolChanges += 1;
  } else {
    const code = reply.body?.error?.code;
    const reason = reply.body?.error?.reason;
    const match = allowed.rejections.find((r) => r.code === code && (!r.reasons || r.reasons.includes(reason)));
    if (!match) diverge(`${code}${reason ? ` ${reason}` : ""} is not an outcome the contract allows here: ${describe()}`);
    const shape = errorShapeProblems(reply);
    if (shape.length) diverge(`${shape.join("; ")}: ${describe()}`);
    const body = reply.body;
    if (body.operationId !== request.operationId || body.status !== "rejected" || body.orderId !== m.orderId)
      diverge(`a recorded rejection carries operationId, status "rejected" and orderId: ${describe()}`);
    const error = body.error;
    const status = { VERSION_CONFLICT: 409, NOT_ELIGIBLE: 409, SELLER_SUSPENDED: 409, OUT_OF_STOCK: 409, NO_PICKUP_SLOT: 409 }[
      code as string
    ];
    if (reply.status !== status) diverge(`${code} came with HTTP ${reply.status}: ${describe()}`);
    if (code === "VERSION_CONFLICT" && (error.expectedVersion !== request.expectedVersion || error.currentVersion !== m.version))
      diverge(`VERSION_CONFLICT details: ${describe()}`);
    if (code === "NOT_ELIGIBLE" && error.orderStatus !== m.status)
      diverge(`NOT_ELIGIBLE names status ${error.orderStatus}, the order is ${m.status}: ${describe()}`);
    if (code === "OUT_OF_STOCK" && error.sku !== sku) diverge(`OUT_OF_STOCK names ${error.sku}: ${describe()}`);
    if (code === "NO_PICKUP_SLOT" && !Array.isArray(error.availableDates)) diverge(`NO_PICKUP_SLOT without availableDates: ${describe()}`);
    if (code === "SELLER_SUSPENDED" && !/start_return/.test(error.message))
      diverge(`SELLER_SUSPENDED does not say a return still works: ${describe()}`);
    if (code === "NOT_ELIGIBLE" && reason === "REPLACEMENT_LINE" && !/person/i.test(error.message))
      diverge(`REPLACEMENT_LINE does not say a person must handle it: ${describe()}`);
  }
  m.ops.set(request.operationId as string, { tool, request, status: reply.status, text: reply.text, by });
}

/** JSON with every object's keys sorted: equality of content, whatever order the keys were written in. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v) =>
    v && typeof v === "object" && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b))) : v,
  );
}

function describeModel(m: Model): string {
  const slots = m.slots.map((s) => `${s.date.slice(5)}/${s.window.slice(0, 2)}:${s.capacity}`).join(" ");
  const items = m.items
    .map(
      (i) =>
        `${i.itemId}${i.replacementFor ? `←${i.replacementFor}` : ""}${m.returned.has(i.itemId) ? "(returned)" : ""}${m.replaced.has(i.itemId) ? "(replaced)" : ""}`,
    )
    .join(" ");
  return `{${m.status} v${m.version}${m.deliveredDaysAgo !== null ? ` delivered ${m.deliveredDaysAgo}d ago` : ""}${m.sellerActive ? "" : " seller suspended"} items [${items}] stock ${m.stock} slots [${slots}]}`;
}

/** The stored truth, read through get_order (the contract's view) and the stock and slot items, against the model. */
async function compare(m: Model, r: Real, after: string): Promise<void> {
  const view = await r.world.call("get_order", owner, { orderId: m.orderId });
  if (view.status !== 200) diverge(`after ${after}: get_order answered ${view.status} ${show(view.text)}`);
  const o = view.body;
  const returnedIds = new Set<string>((o.returns ?? []).flatMap((ret: { itemIds?: string[] }) => ret.itemIds ?? []));
  const problems: string[] = [];
  if (o.status !== m.status) problems.push(`status ${o.status}, model ${m.status}`);
  if (o.version !== m.version) problems.push(`version ${o.version}, model ${m.version}`);
  if (JSON.stringify(o.items.map((i: { itemId: string }) => i.itemId)) !== JSON.stringify(m.items.map((i) => i.itemId)))
    problems.push(`items ${show(o.items.map((i: { itemId: string }) => i.itemId))}`);
  if (JSON.stringify([...returnedIds].sort()) !== JSON.stringify([...m.returned].sort()))
    problems.push(`returned ${show([...returnedIds])}, model ${show([...m.returned])}`);
  if ((o.delivery?.note?.text ?? null) !== m.note) problems.push(`note ${show(o.delivery?.note)}, model ${show(m.note)}`);
  const stock = await r.world.stock(r.sku);
  if (stock !== m.stock) problems.push(`stock ${stock}, model ${m.stock}`);
  for (const slot of m.slots) {
    const capacity = await r.world.slot(slot.date, slot.window);
    if (capacity !== slot.capacity) problems.push(`slot ${slot.date} ${slot.window} capacity ${capacity}, model ${slot.capacity}`);
    if ((capacity ?? 0) < 0) problems.push(`slot ${slot.date} ${slot.window} below zero`);
  }
  const activity = await r.world.activity(m.orderId);
  if (activity.length !== m.toolChanges)
    problems.push(`${activity.length} activity entries for ${m.toolChanges} changes made by the tools`);
  if (problems.length)
    diverge(`after ${after}: the stored order differs from the model (${problems.join("; ")}); model ${describeModel(m)}`);
}

// ——— commands ———

abstract class ToolCommand implements fc.AsyncCommand<Model, Real, false> {
  abstract readonly tool: Tool;
  actor: Actor = "owner";
  abstract request(m: Model, r: Real): Record<string, unknown>;
  abstract label(): string;
  check(): boolean {
    return true;
  }
  /** The same command, sent by `actor`. */
  by(actor: Actor): this {
    this.actor = actor;
    return this;
  }
  async run(m: Model, r: Real): Promise<void> {
    const request = { operationId: newOperationId("op-model"), ...this.request(m, r) };
    const caller = callerOf(this.actor, m);
    const reply = await r.world.call(this.tool, caller, request);
    if (this.actor === "seller" && notForSellers.has(this.tool)) {
      count(r, "seller refusals");
      const what = `${this.toString()} ${show(request)} on ${describeModel(m)} → ${reply.status} ${show(reply.text, 600)}`;
      if (reply.status !== 403 || reply.body?.error?.code !== "FORBIDDEN")
        diverge(`a seller's ${this.tool} must be 403 FORBIDDEN: ${what}`);
      if (JSON.stringify(reply.body.error.allowedPrincipals) !== JSON.stringify(["customer", "support"]))
        diverge(`FORBIDDEN names allowedPrincipals ${show(reply.body.error.allowedPrincipals)}: ${what}`);
      if (await r.world.operation(caller.claims.sub as string, request.operationId))
        diverge(`a seller's refused ${this.tool} was recorded: ${what}`);
      await compare(m, r, this.toString());
      return;
    }
    count(r, reply.status === 200 ? "completed" : "rejected");
    if (this.actor === "seller") count(r, "seller changes");
    checkAndApply(m, this.tool, request, reply, r.today, r.sku, this.actor);
    await compare(m, r, this.toString());
  }
  toString(): string {
    return this.actor === "seller" ? `seller:${this.label()}` : this.label();
  }
}

const withVersion = (choice: VersionChoice, m: Model) => {
  const v = versionFor(choice, m);
  return v === undefined ? {} : { expectedVersion: v };
};

class Cancel extends ToolCommand {
  readonly tool = "cancel_order";
  constructor(
    readonly version: VersionChoice,
    readonly reason: string | null,
  ) {
    super();
  }
  request(m: Model) {
    return { orderId: m.orderId, ...withVersion(this.version, m), ...(this.reason ? { reason: this.reason } : {}) };
  }
  label() {
    return `cancel(${this.version}${this.reason ? `, ${JSON.stringify(this.reason)}` : ""})`;
  }
}

class Note extends ToolCommand {
  readonly tool = "add_delivery_note";
  constructor(
    readonly version: Exclude<VersionChoice, "none">,
    readonly note: string,
  ) {
    super();
  }
  request(m: Model) {
    return { orderId: m.orderId, ...withVersion(this.version, m), deliveryNote: this.note };
  }
  label() {
    return `note(${this.version}, ${JSON.stringify(this.note)})`;
  }
}

/** Item picks index the model's items at run time; one past the end is an item the order does not have. */
const pickItem = (m: Model, pick: number) => m.items[pick % (m.items.length + 1)]?.itemId ?? "ITM-999";

class Return extends ToolCommand {
  readonly tool = "start_return";
  constructor(
    readonly version: VersionChoice,
    readonly picks: number[],
    readonly reason: string,
    readonly pickupInDays: number | null,
  ) {
    super();
  }
  request(m: Model, r: Real) {
    const itemIds = [...new Set(this.picks.map((p) => pickItem(m, p)))];
    return {
      orderId: m.orderId,
      ...withVersion(this.version, m),
      itemIds,
      reason: this.reason,
      ...(this.pickupInDays ? { pickupDate: addDays(r.today, this.pickupInDays) } : {}),
    };
  }
  label() {
    return `return(${this.version}, items#${this.picks.join("/")}, ${this.reason}${this.pickupInDays ? `, pickup +${this.pickupInDays}d` : ""})`;
  }
}

class Replace extends ToolCommand {
  readonly tool = "offer_replacement";
  constructor(
    readonly version: Exclude<VersionChoice, "none">,
    readonly pick: number,
    readonly reason: string,
  ) {
    super();
  }
  request(m: Model) {
    return { orderId: m.orderId, ...withVersion(this.version, m), itemId: pickItem(m, this.pick), reason: this.reason };
  }
  label() {
    return `replace(${this.version}, item#${this.pick}, ${this.reason})`;
  }
}

/** The order system's own changes: progress, ship and deliver, each version + 1 (and no activity entry of ours). */
class External implements fc.AsyncCommand<Model, Real, false> {
  constructor(readonly kind: "progress" | "ship" | "deliver") {}
  check(m: Model): boolean {
    if (this.kind === "progress") return m.status === "placed" || m.status === "processing";
    if (this.kind === "ship") return m.status === "placed" || m.status === "processing" || m.status === "dispatching";
    return m.status === "shipped";
  }
  async run(m: Model, r: Real): Promise<void> {
    const next: Status =
      this.kind === "progress" ? (m.status === "placed" ? "processing" : "dispatching") : this.kind === "ship" ? "shipped" : "delivered";
    await r.world.admin.send(
      new UpdateCommand({
        TableName: r.world.names.orders,
        Key: orderKey(m.orderId),
        UpdateExpression: `SET #status = :next, version = version + :one${this.kind === "deliver" ? ", deliveredAt = :at" : ""}`,
        ConditionExpression: "#status = :was AND version = :version",
        ExpressionAttributeNames: { "#status": "status" },
        ExpressionAttributeValues: {
          ":next": next,
          ":one": 1,
          ":was": m.status,
          ":version": m.version,
          ...(this.kind === "deliver" ? { ":at": `${r.today}T08:00:00Z` } : {}),
        },
      }),
    );
    m.status = next;
    m.version += 1;
    count(r, "order-system changes");
    if (this.kind === "deliver") m.deliveredDaysAgo = 0;
    await compare(m, r, this.toString());
  }
  toString(): string {
    return this.kind;
  }
}

/** Repeats an earlier request unchanged (or asks the status lookup about it): the first outcome, changing nothing. */
class Retry implements fc.AsyncCommand<Model, Real, false> {
  constructor(
    readonly pick: number,
    readonly via: "request" | "status" | "status-get",
  ) {}
  check(m: Model): boolean {
    return m.ops.size > 0;
  }
  async run(m: Model, r: Real): Promise<void> {
    const [operationId, op] = [...m.ops.entries()][this.pick % m.ops.size] as [string, RecordedOp];
    count(r, this.via === "request" ? "replays" : "status lookups");
    const what = `${this.toString()} of ${op.tool} ${show(op.request)} (first answer ${op.status} ${show(op.text)})`;
    if (this.via === "request") {
      const reply = await r.world.call(op.tool, callerOf(op.by, m), op.request);
      if (reply.status !== op.status || reply.text !== op.text) diverge(`${what}: the replay answered ${reply.status} ${show(reply.text)}`);
      if (reply.headers["idempotent-replayed"] !== "true") diverge(`${what}: the replay lacks Idempotent-Replayed: true`);
    } else {
      const reply = await r.world.call("get_operation_status", callerOf(op.by, m), { operationId }, { get: this.via === "status-get" });
      const first = JSON.parse(op.text);
      const expected =
        op.status === 200
          ? { operationId, status: "completed", tool: op.tool, orderId: m.orderId, orderVersion: first.orderVersion, result: first }
          : { operationId, status: "rejected", tool: op.tool, orderId: m.orderId, error: first.error };
      if (reply.status !== 200 || canonical(reply.body) !== canonical(expected))
        diverge(`${what}: the status lookup answered ${reply.status} ${show(reply.text)}, the contract wants ${show(expected)}`);
    }
    await compare(m, r, what);
  }
  toString(): string {
    return `retry#${this.pick}(${this.via})`;
  }
}

/** Sends an earlier operationId with other arguments or another tool: IDEMPOTENCY_KEY_REUSED, nothing changes. */
class Reuse implements fc.AsyncCommand<Model, Real, false> {
  constructor(
    readonly pick: number,
    readonly otherTool: boolean,
  ) {}
  check(m: Model): boolean {
    return m.ops.size > 0;
  }
  async run(m: Model, r: Real): Promise<void> {
    const [operationId, op] = [...m.ops.entries()][this.pick % m.ops.size] as [string, RecordedOp];
    let tool: Tool = op.tool;
    let request: Record<string, unknown>;
    if (this.otherTool && op.by === "seller") {
      // Another of the tools a seller may use: any other would be FORBIDDEN before the id is looked at.
      tool = op.tool === "start_return" ? "offer_replacement" : "start_return";
      request =
        tool === "start_return"
          ? { operationId, orderId: m.orderId, itemIds: ["ITM-1"], reason: "damaged" }
          : { operationId, orderId: m.orderId, expectedVersion: m.version, itemId: "ITM-1", reason: "damaged" };
    } else if (this.otherTool) {
      tool = op.tool === "cancel_order" ? "add_delivery_note" : "cancel_order";
      request =
        tool === "cancel_order"
          ? { operationId, orderId: m.orderId }
          : { operationId, orderId: m.orderId, expectedVersion: m.version, deliveryNote: "Another note" };
    } else {
      const changed: Record<Tool, Record<string, unknown>> = {
        cancel_order: { reason: `${String(op.request.reason ?? "")} and another reason`.trim() },
        add_delivery_note: { deliveryNote: `${String(op.request.deliveryNote)} (changed)` },
        start_return: { reason: op.request.reason === "other" ? "damaged" : "other" },
        offer_replacement: { reason: op.request.reason === "missing" ? "damaged" : "missing" },
      };
      request = { ...op.request, ...changed[op.tool] };
    }
    const reply = await r.world.call(tool, callerOf(op.by, m), request);
    count(r, "reuses");
    const what = `${this.toString()}: ${tool} ${show(request)} reusing the id of ${op.tool} ${show(op.request)}`;
    if (reply.status !== 422 || reply.body?.error?.code !== "IDEMPOTENCY_KEY_REUSED")
      diverge(`${what} answered ${reply.status} ${show(reply.text)}`);
    if (this.otherTool && reply.body.error.originalTool !== op.tool) diverge(`${what}: originalTool is ${reply.body.error.originalTool}`);
    const shape = errorShapeProblems(reply);
    if (shape.length) diverge(`${what}: ${shape.join("; ")}`);
    await compare(m, r, what);
  }
  toString(): string {
    return `reuse#${this.pick}(${this.otherTool ? "other tool" : "other arguments"})`;
  }
}

// ——— generators ———

const versionChoice = fc.constantFrom<VersionChoice>("current", "current", "current", "stale", "ahead", "none");
const requiredVersion = fc.constantFrom<Exclude<VersionChoice, "none">>("current", "current", "current", "stale", "ahead");
/** Valid notes with characters the contract keeps: several scripts, emoji, combining marks (NFC), line breaks, padding. */
const noteText = fc
  .tuple(
    fc.constantFrom("", " ", "  "),
    fc.array(
      fc.constantFrom(
        "Leave",
        "at",
        "the",
        "door",
        "gate",
        "4411",
        "é",
        "e\u0301",
        "straße",
        "日本",
        "Ωμέγα",
        "دار",
        "😀",
        "❤️",
        "—",
        "#2",
        "\n",
        "\r\n",
        " ",
      ),
      { minLength: 1, maxLength: 8 },
    ),
    fc.constantFrom("", " ", "\n"),
  )
  .map(([a, words, b]) => `${a}Note ${words.join(" ")}${b}`);

/** Most changes come from the customer; one in three from the seller's user. */
const actor = fc.constantFrom<Actor>("owner", "owner", "seller");

const commandArbitraries = [
  fc
    .tuple(versionChoice, fc.option(fc.constantFrom("Changed my mind", "Ordered twice", "Too late"), { nil: null }), actor)
    .map(([v, r, a]) => new Cancel(v, r).by(a)),
  fc.tuple(requiredVersion, noteText, actor).map(([v, n, a]) => new Note(v, n).by(a)),
  fc
    .tuple(
      versionChoice,
      fc.array(fc.nat(4), { minLength: 1, maxLength: 3 }),
      fc.constantFrom("damaged", "wrong_item", "not_as_described", "no_longer_needed", "other"),
      fc.option(fc.integer({ min: 1, max: 5 }), { nil: null }),
      actor,
    )
    .map(([v, p, reason, d, a]) => new Return(v, p, reason, d).by(a)),
  fc
    .tuple(requiredVersion, fc.nat(4), fc.constantFrom("damaged", "missing", "wrong_item"), actor)
    .map(([v, p, reason, a]) => new Replace(v, p, reason).by(a)),
  fc.constantFrom("progress", "ship", "deliver").map((k) => new External(k as "progress" | "ship" | "deliver")),
  fc
    .tuple(fc.nat(), fc.constantFrom<"request" | "status" | "status-get">("request", "request", "status", "status-get"))
    .map(([p, via]) => new Retry(p, via)),
  fc.tuple(fc.nat(), fc.boolean()).map(([p, other]) => new Reuse(p, other)),
];

const initialState = fc.record({
  status: fc.constantFrom<Status>("placed", "processing", "dispatching", "shipped", "delivered", "delivered", "delivered", "cancelled"),
  version: fc.integer({ min: 1, max: 6 }),
  deliveredDaysAgo: fc.integer({ min: 0, max: 18 }),
  sellerActive: fc.constantFrom(true, true, true, false),
  itemCount: fc.integer({ min: 1, max: 3 }),
  stock: fc.integer({ min: 0, max: 2 }),
  slots: fc.array(fc.tuple(fc.integer({ min: 1, max: 4 }), fc.constantFrom("08:00-12:00", "12:00-17:00"), fc.integer({ min: 0, max: 2 })), {
    maxLength: 4,
  }),
});

export interface ModelOptions {
  sequences: number;
  maxCommands: number;
  seed?: number;
}

export async function runModelBased(endpoint: string, options: ModelOptions): Promise<PartReport> {
  const started = performance.now();
  const today = todayUtc();
  const world = await reliabilityWorld(
    endpoint,
    { sellers: baseSellers, policies: basePolicies, customers: customers(["C-1001"]) },
    { now: () => new Date(`${today}T10:00:00Z`) },
  );
  const failures = new Failures(10);
  let sequences = 0;
  let commands = 0;
  let orderNumber = 50_000;
  const seed = options.seed ?? Date.now() % 2 ** 31;
  const tally = new Map<string, number>();
  try {
    const property = fc.asyncProperty(
      initialState,
      fc.commands(commandArbitraries, { maxCommands: options.maxCommands, size: "max" }),
      async (init, cmds) => {
        sequences++;
        const orderId = `SU-${String(orderNumber++).padStart(5, "0")}`;
        const sku = `MODEL-${orderId}`;
        const slots = dedupeSlots(init.slots.map(([d, window, capacity]) => ({ date: addDays(today, d), window, capacity })));
        await resetPickupSlots(world);
        const status = init.status;
        const items = Array.from({ length: init.itemCount }, (_, i) => ({ itemId: `ITM-${i + 1}`, sku }));
        await world.load({
          sellers: baseSellers,
          policies: basePolicies,
          customers: customers(["C-1001"]),
          stock: [{ sku, available: init.stock }],
          pickupSlots: slots,
          orders: [
            orderItem(orderId, today, {
              customerId: "C-1001",
              sellerId: init.sellerActive ? "SLR-2210" : "SLR-3300",
              status,
              version: init.version,
              deliveredDaysAgo: init.deliveredDaysAgo,
              items,
            }),
          ],
        });
        const model: Model = {
          orderId,
          sellerId: init.sellerActive ? "SLR-2210" : "SLR-3300",
          status,
          version: init.version,
          deliveredDaysAgo: status === "delivered" ? init.deliveredDaysAgo : null,
          sellerActive: init.sellerActive,
          items: items.map((i) => ({ itemId: i.itemId })),
          returned: new Set(),
          replaced: new Set(),
          returnIds: new Set(),
          note: null,
          stock: init.stock,
          slots,
          ops: new Map(),
          toolChanges: 0,
        };
        const start = `initial ${describeModel(model)}`;
        const ran: string[] = [];
        const counted = [...cmds].map((c) => ({
          check: (m: Model) => c.check(m),
          run: async (m: Model, r: Real) => {
            ran.push(c.toString());
            commands++;
            await c.run(m, r);
          },
          toString: () => c.toString(),
        }));
        try {
          await fc.asyncModelRun(() => ({ model, real: { world, sku, today, tally } }), counted);
        } catch (error) {
          failures.add(
            `sequence ${sequences} (seed ${seed}), ${start}, commands [${ran.join(", ")}]: ${error instanceof Divergence ? error.message : (error as Error).stack}`,
          );
        }
        return true;
      },
    );
    await fc.assert(property, { numRuns: options.sequences, seed, endOnFailure: true });
    return {
      part: "model",
      figures: { sequences, commands, ...Object.fromEntries([...tally.entries()].sort()), divergences: failures.count, seed },
      failures: failures.list,
      failureCount: failures.count,
      seconds: (performance.now() - started) / 1000,
    };
  } finally {
    await world.destroy();
  }
}

function dedupeSlots(slots: Slot[]): Slot[] {
  const byKey = new Map(slots.map((s) => [`${s.date}#${s.window}`, s]));
  return [...byKey.values()];
}

/** Each sequence starts with only its own pickup slots: the slots share one partition. */
async function resetPickupSlots(world: World): Promise<void> {
  const { Items = [] } = await world.admin.send(
    new QueryCommand({
      TableName: world.names.orders,
      KeyConditionExpression: "PK = :pk",
      ExpressionAttributeValues: { ":pk": pickupSlotsPartition },
      ConsistentRead: true,
    }),
  );
  await Promise.all(
    Items.map((item) => world.admin.send(new DeleteCommand({ TableName: world.names.orders, Key: { PK: item.PK, SK: item.SK } }))),
  );
}
