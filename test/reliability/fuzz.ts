/**
 * Fuzz through the handlers: per tool, generated malformed and hostile inputs that are invalid by construction
 * (each carries at least one defect the contract refuses: a wrong type, a missing or unknown field, a bad value, a body
 * that is not a JSON object or is over 16 KiB), dressed with hostile but valid values elsewhere (JSON- and
 * expression-looking text, numbers at the safe-integer edge). Every answer must be 400 with contract §3's
 * INVALID_INPUT body and nothing may be written: DynamoDB write requests are counted on every client the store
 * makes. Delivery notes are fuzzed apart, with characters of every class the contract names, and classified by an
 * oracle written from contract §5's note rules: refused notes must be INVALID_INPUT naming the position, kept ones
 * must pass validation (they reach a nonexistent order, so the answer is ORDER_NOT_FOUND and only its record is
 * written).
 *
 * Searches are fuzzed apart too, the other way round: inputs valid by construction (every criterion as its schema
 * allows it, day ranges anywhere in the four-digit years, near their ends and across month and year ends), each
 * answered within the tool function's time budget with exactly what an oracle written from contract §5 finds in
 * the fixture, or with the 400 the contract names for it.
 */
import fc from "fast-check";
import { orderIdPattern } from "#core/order";
import {
  baseSellers,
  basePolicies,
  customer,
  customers,
  Failures,
  newOperationId,
  orderItem,
  type PartReport,
  percentile,
  type Reply,
  reliabilityWorld,
  seller,
  show,
  support,
  todayUtc,
  type ToolName,
} from "#test/reliability/harness";

type Kind =
  | "orderId"
  | "fragment"
  | "operationId"
  | "version"
  | "limit"
  | "note"
  | "cancelReason"
  | "returnReason"
  | "replaceReason"
  | "itemIds"
  | "itemId"
  | "email"
  | "dateRange"
  | "pickupDate";

interface FieldSpec {
  kind: Kind;
  required: boolean;
  valid: () => unknown;
}

const owner = customer("C-1001");
/** The seller of the fuzz order: the same inputs through a seller's token, whose refusals differ only where its tools do. */
const orderSeller = seller("SLR-2210");
/** Tools a seller may not use: every input, valid or not, is FORBIDDEN before it is read, and nothing is sent to DynamoDB. */
const notForSellers = new Set<ToolName>(["cancel_order", "add_delivery_note"]);
const maxSafe = Number.MAX_SAFE_INTEGER;

/** Each tool's fields with a valid value, so a defect in one field is the only thing wrong. */
const toolFields: Record<ToolName, Record<string, FieldSpec>> = {
  search_orders: {
    orderId: { kind: "fragment", required: false, valid: () => "SU-10001" },
    email: { kind: "email", required: false, valid: () => "c-1001@example.com" },
    limit: { kind: "limit", required: false, valid: () => 5 },
  },
  get_order: { orderId: { kind: "orderId", required: true, valid: () => "SU-10001" } },
  get_operation_status: { operationId: { kind: "operationId", required: true, valid: () => "op-fuzz-00000001" } },
  cancel_order: {
    operationId: { kind: "operationId", required: true, valid: () => newOperationId("op-fuzz") },
    orderId: { kind: "orderId", required: true, valid: () => "SU-10001" },
    expectedVersion: { kind: "version", required: false, valid: () => 1 },
    reason: { kind: "cancelReason", required: false, valid: () => "Ordered twice" },
  },
  add_delivery_note: {
    operationId: { kind: "operationId", required: true, valid: () => newOperationId("op-fuzz") },
    orderId: { kind: "orderId", required: true, valid: () => "SU-10001" },
    expectedVersion: { kind: "version", required: true, valid: () => 1 },
    deliveryNote: { kind: "note", required: true, valid: () => "Leave it at the door" },
  },
  start_return: {
    operationId: { kind: "operationId", required: true, valid: () => newOperationId("op-fuzz") },
    orderId: { kind: "orderId", required: true, valid: () => "SU-10001" },
    expectedVersion: { kind: "version", required: false, valid: () => 1 },
    itemIds: { kind: "itemIds", required: true, valid: () => ["ITM-1"] },
    reason: { kind: "returnReason", required: true, valid: () => "damaged" },
    pickupDate: { kind: "pickupDate", required: false, valid: () => "2099-01-05" },
  },
  offer_replacement: {
    operationId: { kind: "operationId", required: true, valid: () => newOperationId("op-fuzz") },
    orderId: { kind: "orderId", required: true, valid: () => "SU-10001" },
    expectedVersion: { kind: "version", required: true, valid: () => 1 },
    itemId: { kind: "itemId", required: true, valid: () => "ITM-1" },
    reason: { kind: "replaceReason", required: true, valid: () => "damaged" },
  },
};

// ——— hostile material ———

const controls = ["\u0000", "\u0007", "\u0008", "\t", "\r", "\u001b", "\u007f", "\u0085", "\u009f"];
const bidi = ["\u202a", "\u202b", "\u202c", "\u202d", "\u202e", "\u2066", "\u2067", "\u2068", "\u2069", "\u200e", "\u200f", "\u061c"];
const zeroWidth = [
  "\u200b",
  "\u200c",
  "\u200d",
  "\u2060",
  "\ufeff",
  "\u00ad",
  "\u034f",
  "\u180e",
  "\u3164",
  "\ufe0f",
  "\u{e0041}",
  "\u{e0100}",
];
const loneSurrogates = ["\ud800", "\udbff", "\udc00", "\udfff"];
const jsonLooking = [
  '{"orderId":"SU-10001"}',
  '{"status":"cancelled","version":99}',
  "[1,2,3]",
  "null",
  "true",
  '"SU-10001"',
  '{"$ne":null}',
];
const expressionLooking = [
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a template-injection probe, meant to arrive as plain text
  "${7*7}",
  "{{7*7}}",
  "#{7*7}",
  "<%= 7*7 %>",
  "attribute_exists(PK)",
  ":v0",
  "#n0",
  "SU-10001 OR 1=1",
  "'; DROP TABLE orders; --",
  "$where",
  "../../etc/passwd",
  "__proto__",
  "constructor.prototype",
  "=cmd|' /C calc'!A0",
];
const oddDigits = ["SU-１２３４５", "SU-١٢٣٤٥", "SU-1234５", "ＳＵ-12345", "su-12345", "SU–12345", "SU-12345\n", " SU-12345", "SU-12345 "];

const pick = <T>(values: readonly T[]) => fc.constantFrom(...values);

/** A string that is not a valid value of the given kind (for ids, reasons, dates, e-mails). */
const badStrings: fc.Arbitrary<string> = fc.oneof(
  pick(["", " ", "x", "SU-", "SU-1234", "SU-123456", "ITM-", "ITM-x", "op", "2026-02-30", "2026-13-01", "tomorrow"]),
  pick(oddDigits),
  pick(jsonLooking),
  pick(expressionLooking.filter((e) => !/^[A-Za-z0-9._:-]{8,128}$/.test(e))),
  fc
    .tuple(
      pick(["SU-10001", "op-fuzz-00000001", "ITM-1", "damaged"]),
      pick([...controls, ...bidi, ...zeroWidth, ...loneSurrogates]),
      fc.boolean(),
    )
    .map(([v, c, front]) => (front ? `${c}${v}` : `${v}${c}`)),
  fc.integer({ min: 129, max: 14_000 }).map((n) => "A".repeat(n)),
);

/** Values of the wrong JSON type for any field, huge arrays and deep nesting included. */
const wrongTypes: fc.Arbitrary<unknown> = fc.oneof(
  pick<unknown>([null, true, false, 0, -1, 1.5, {}, [], [null], { orderId: "SU-10001" }]),
  fc.integer({ min: 1000, max: 3000 }).map((n) => Array.from({ length: n }, (_, i) => i)),
  fc.integer({ min: 50, max: 1500 }).map((depth) => nest(depth, "SU-10001")),
  fc.integer({ min: 50, max: 1500 }).map((depth) => nestObject(depth)),
);

function nest(depth: number, leaf: unknown): unknown {
  let value: unknown = leaf;
  for (let i = 0; i < depth; i++) value = [value];
  return value;
}

function nestObject(depth: number): unknown {
  let value: unknown = { leaf: "SU-10001" };
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
}

/** Numbers a field must refuse: zero, negatives, fractions, and at and past the safe-integer edge. */
const badNumbers = (kind: "version" | "limit") =>
  pick<unknown>([
    0,
    -1,
    -0.5,
    1.5,
    2 ** 53,
    2 ** 53 + 2,
    -(2 ** 53),
    1e308,
    -1e308,
    "1",
    "1e3",
    ...(kind === "limit" ? [21, maxSafe, 1000] : []),
  ]);

/** Notes and reasons the contract refuses: controls, bidi, invisible characters, lone surrogates, too long, too many lines, empty. */
const badFreeText = (maxCharacters: number, maxLines: number) =>
  fc.oneof(
    fc
      .tuple(
        fc.string({ maxLength: 20 }).map((s) => s.replace(/[^A-Za-z ]/g, "")),
        pick([...controls.filter((c) => c !== "\t" || true), ...bidi, ...zeroWidth.filter((z) => z !== "\ufe0f"), ...loneSurrogates]),
        fc.string({ maxLength: 20 }).map((s) => s.replace(/[^A-Za-z ]/g, "")),
      )
      .map(([a, c, b]) => `ok ${a}${c}${b}`),
    fc.integer({ min: maxCharacters + 1, max: maxCharacters + 400 }).map((n) => "n".repeat(n)),
    fc.integer({ min: maxLines + 1, max: maxLines + 30 }).map((n) => Array.from({ length: n }, (_, i) => `line ${i}`).join("\n")),
    pick(["", "   ", "\n\n", " \u3000 "]),
  );

/** Values that a kind's field accepts, so that a generated "bad" string that happens to be valid is dropped. */
const acceptedBy: Partial<Record<Kind, RegExp>> = {
  operationId: /^[A-Za-z0-9._:-]{8,128}$/,
  orderId: orderIdPattern,
  fragment: /^(SU-)?\d{3,5}$/,
  itemId: /^ITM-\d{1,12}$/,
  email: /^[^\s@]+@[^\s@]+\.[^\s@]+$/,
};
const invalidFor = (kind: Kind) => (value: unknown) => typeof value !== "string" || !acceptedBy[kind]?.test(value);

const badValue = (kind: Kind): fc.Arbitrary<unknown> => badValueOf(kind).filter(invalidFor(kind));

const badValueOf = (kind: Kind): fc.Arbitrary<unknown> => {
  switch (kind) {
    case "version":
    case "limit":
      return fc.oneof(
        badNumbers(kind),
        wrongTypes.filter((v) => typeof v !== "number"),
      );
    case "note":
      return fc.oneof({ weight: 3, arbitrary: badFreeText(500, 10) }, { weight: 1, arbitrary: wrongTypes });
    case "cancelReason":
      return fc.oneof({ weight: 3, arbitrary: badFreeText(200, 1) }, { weight: 1, arbitrary: wrongTypes });
    case "itemIds":
      return fc.oneof(
        pick<unknown>([[], ["ITM-1", "ITM-1"], "ITM-1", [1], [null], [["ITM-1"]]]),
        fc.integer({ min: 21, max: 1500 }).map((n) => Array.from({ length: n }, (_, i) => `ITM-${i + 1}`)),
        badStrings.map((s) => [s]),
        wrongTypes,
      );
    case "dateRange":
      return fc.oneof(
        pick<unknown>([
          {},
          { dateField: "placed" },
          { dateField: "shipped", from: "2026-01-01", to: "2026-01-02" },
          { dateField: "placed", from: "2026-02-01", to: "2026-01-01" },
          { dateField: "placed", from: "2026-01-01", to: "2026-12-31" },
        ]),
        wrongTypes,
      );
    default:
      return fc.oneof({ weight: 3, arbitrary: badStrings }, { weight: 2, arbitrary: wrongTypes });
  }
};

/** Valid values that are hostile all the same: what sits beside the defect. */
const hostileButValid = (kind: Kind): fc.Arbitrary<unknown> | undefined => {
  switch (kind) {
    case "version":
      return pick([1, 2, maxSafe]);
    case "note":
      return pick([...jsonLooking, ...expressionLooking, "Ωμέγα 日本 😀 ❤️ 1️⃣", "e\u0301"]);
    case "cancelReason":
      return pick([...jsonLooking, ...expressionLooking]);
    case "operationId":
      return pick(["op:__proto__:x", "constructor.toString", "........", "op-:-.-_-", "A".repeat(128)]);
    default:
      return undefined;
  }
};

const unknownKeys = [
  "__proto__",
  "constructor",
  "prototype",
  "toString",
  "hasOwnProperty",
  "customerId",
  "customer_id",
  "status",
  "version",
  "sub",
  "principal",
  "",
  " ",
  "orderid",
  "OrderId",
  "operationID",
  "$where",
  "a".repeat(300),
];

/** One generated input: a JSON value to send, or raw text. */
interface Input {
  defect: string;
  body: unknown;
  raw?: string;
  /** get_operation_status only: send it on GET /v1/operations/{operationId}. */
  get?: boolean;
}

function validRequest(tool: ToolName): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(toolFields[tool])
      .filter(([, spec]) => spec.required || spec.kind === "fragment")
      .map(([name, spec]) => [name, spec.valid()]),
  );
}

function inputs(tool: ToolName): fc.Arbitrary<Input> {
  const fields = Object.entries(toolFields[tool]);
  const names = fields.map(([name]) => name);
  const required = fields.filter(([, s]) => s.required).map(([name]) => name);
  // Hostile noise beside the defect, on another field.
  const withNoise = (base: Record<string, unknown>, except: string): fc.Arbitrary<Record<string, unknown>> => {
    const candidates = names.filter((n) => n !== except && hostileButValid(toolFields[tool][n]?.kind as Kind));
    if (candidates.length === 0) return fc.constant(base);
    return fc.option(fc.constantFrom(...candidates), { nil: undefined }).chain((field) => {
      const arb = field ? hostileButValid(toolFields[tool][field]?.kind as Kind) : undefined;
      return arb ? arb.map((value) => ({ ...base, [field as string]: value })) : fc.constant(base);
    });
  };

  const wrongValue = fc
    .constantFrom(...names)
    .chain((field) =>
      badValue(toolFields[tool][field]?.kind as Kind).chain((value) =>
        withNoise({ ...validRequest(tool), [field]: value }, field).map((body) => ({ defect: `bad ${field}`, body })),
      ),
    );
  const missing =
    tool === "search_orders"
      ? fc.constant<Input>({ defect: "no criterion", body: { limit: 5 } })
      : fc.constantFrom(...required).map((field) => {
          const body = validRequest(tool);
          delete body[field];
          return { defect: `missing ${field}`, body };
        });
  const extra = fc
    .tuple(pick(unknownKeys), fc.oneof(pick<unknown>(["x", 1, null, { polluted: true }, ["SU-10001"]]), wrongTypes))
    .map(([key, value]): Input => {
      const valid = JSON.stringify(validRequest(tool));
      // Written as text: an object literal cannot hold an own "__proto__" key, and JSON.parse makes one.
      return {
        defect: `unknown field ${JSON.stringify(key).slice(0, 40)}`,
        body: undefined,
        raw: `${valid.slice(0, -1)},${JSON.stringify(key)}:${JSON.stringify(value)}}`,
      };
    });
  const nonObject = pick<Input>(
    [
      "",
      " ",
      "null",
      "true",
      "0",
      "1e400",
      '"SU-10001"',
      "[]",
      '[{"orderId":"SU-10001"}]',
      "{",
      '{"orderId":}',
      "{'orderId':'SU-10001'}",
      "orderId=SU-10001",
      "<xml/>",
      "\u0000",
      "NaN",
      "undefined",
      "\ufeff{}",
      '{"orderId":"SU-10001"}garbage',
    ].map((raw) => ({ defect: "not a JSON object", body: undefined, raw })),
  );
  const oversize = fc.integer({ min: 16 * 1024 + 1, max: 64 * 1024 }).map((size): Input => {
    const valid = validRequest(tool);
    const padding = "p".repeat(size);
    return { defect: "over 16 KiB", body: undefined, raw: JSON.stringify({ ...valid, padding }) };
  });
  const numberFields = names.filter((n) => ["version", "limit"].includes(toolFields[tool][n]?.kind as string));
  const rawNumbers =
    numberFields.length === 0
      ? undefined
      : fc.constantFrom(...numberFields).chain((field) =>
          pick(["1e400", "-1e400", "9007199254740993", "1.0000000000000002", "-0", "0.1e1.5", "01", "+1", "0x10", "Infinity"]).map(
            (token): Input => {
              const valid = JSON.stringify({ ...validRequest(tool), [field]: "__NUMBER__" });
              return { defect: `number ${token} for ${field}`, body: undefined, raw: valid.replace('"__NUMBER__"', token) };
            },
          ),
        );
  const deep = fc.integer({ min: 200, max: 4000 }).map((depth): Input => {
    const valid = JSON.stringify(validRequest(tool));
    return {
      defect: `nesting ${depth} deep`,
      body: undefined,
      raw: `${valid.slice(0, -1)},"deep":${"[".repeat(depth)}1${"]".repeat(depth)}}`,
    };
  });
  const generators: fc.Arbitrary<Input>[] = [wrongValue, wrongValue, wrongValue, missing, extra, extra, nonObject, oversize, deep];
  if (rawNumbers) generators.push(rawNumbers);
  const all = fc.oneof(...generators);
  if (tool !== "get_operation_status") return all;
  // The GET route takes the operationId from the path: a string, always; only bad strings apply.
  // A URL path cannot carry a lone surrogate, so none reaches the path parameter.
  return fc.oneof(
    all,
    badStrings
      .filter(invalidFor("operationId"))
      .filter((s) => s !== "" && (s as string & { isWellFormed(): boolean }).isWellFormed())
      .map((operationId): Input => ({ defect: "bad operationId in the path", body: { operationId }, get: true })),
  );
}

// ——— the note oracle, from contract §5 alone ———

const keptCategories = /^[\p{L}\p{M}\p{N}\p{P}\p{S}\p{Zs}\n]$/u;
const ignorable = /^\p{Default_Ignorable_Code_Point}$/u;
const emoji = /^\p{Emoji}$/u;

/** contract §5's note rules: undefined if the note is kept, else the 1-based position of the first refused character (0: a length or line rule). */
export function noteVerdict(raw: string): { ok: true; text: string } | { ok: false; position: number } {
  const chars = [...raw];
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i] as string;
    if (ch === "\r" && chars[i + 1] === "\n") continue;
    const cp = ch.codePointAt(0) as number;
    if ((cp === 0xfe0e || cp === 0xfe0f) && i > 0 && emoji.test(chars[i - 1] as string)) continue;
    if (ignorable.test(ch) || !keptCategories.test(ch)) return { ok: false, position: i + 1 };
  }
  const text = raw.replace(/\r\n/g, "\n").normalize("NFC").trim();
  const length = [...text].length;
  if (length < 1 || length > 500 || text.split("\n").length > 10) return { ok: false, position: 0 };
  return { ok: true, text };
}

const noteTokens = [
  "a",
  "Z",
  "5",
  "é",
  "e\u0301",
  "日",
  "ß",
  "Ω",
  "دار",
  "😀",
  "\u2764",
  "\ufe0f",
  "\ufe0e",
  "#",
  "1",
  "\u20e3",
  " ",
  "\u00a0",
  "\u3000",
  "\n",
  "\r\n",
  "\r",
  "\t",
  "\u0000",
  "\u0007",
  "\u001b",
  "\u007f",
  "\u0085",
  "\u200b",
  "\u200d",
  "\u202e",
  "\u2066",
  "\u00ad",
  "\u034f",
  "\u180e",
  "\ufeff",
  "\ud800",
  "\udc00",
  "\u{e0041}",
  "\u{e0100}",
  "\u3164",
  "\u0600",
  "{",
  "}",
  '"',
  "\\",
  "$",
  "<",
  ">",
  "'",
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a template-injection probe, meant to arrive as plain text
  "${x}",
  "{{x}}",
  '{"a":1}',
];

const noteInputs = fc.oneof(
  { weight: 6, arbitrary: fc.array(fc.constantFrom(...noteTokens), { minLength: 1, maxLength: 40 }).map((t) => t.join("")) },
  {
    weight: 1,
    arbitrary: fc.tuple(fc.integer({ min: 490, max: 510 }), fc.constantFrom("a", "日", "😀", " ")).map(([n, c]) => `x${c.repeat(n)}x`),
  },
  { weight: 1, arbitrary: fc.integer({ min: 8, max: 12 }).map((n) => Array.from({ length: n }, (_, i) => `l${i}`).join(i2(n))) },
);
function i2(n: number) {
  return n % 2 === 0 ? "\n" : "\r\n";
}

// ——— running ———

export interface FuzzOptions {
  perTool: number;
  /** Inputs per tool sent again with a seller's token (default: a fifth of perTool). */
  sellerPerTool?: number;
  notes: number;
  seed?: number;
}

export async function runFuzz(endpoint: string, options: FuzzOptions): Promise<PartReport> {
  const started = performance.now();
  const today = todayUtc();
  const seed = options.seed ?? Date.now() % 2 ** 31;
  const world = await reliabilityWorld(endpoint, {
    sellers: baseSellers,
    policies: basePolicies,
    customers: customers(["C-1001"]),
    orders: [orderItem("SU-10001", today, { customerId: "C-1001", status: "placed" })],
  });
  const failures = new Failures();
  const figures: Record<string, number> = { inputs: 0, "4xx": 0, "5xx": 0, writes: 0, reads: 0, "largest body (bytes)": 0 };
  try {
    for (const tool of Object.keys(toolFields) as ToolName[]) {
      const samples = fc.sample(inputs(tool), { numRuns: options.perTool, seed: seed + tool.length });
      for (const input of samples) {
        world.log.reset();
        const reply = await world.call(tool, owner, input.raw ?? input.body, { raw: input.raw !== undefined, get: input.get === true });
        figures.inputs = (figures.inputs ?? 0) + 1;
        figures[`inputs ${tool}`] = (figures[`inputs ${tool}`] ?? 0) + 1;
        figures.writes = (figures.writes ?? 0) + world.log.writes;
        figures.reads = (figures.reads ?? 0) + world.log.total - world.log.writes;
        figures["largest body (bytes)"] = Math.max(figures["largest body (bytes)"] ?? 0, Buffer.byteLength(reply.text));
        if (reply.status >= 500) figures["5xx"] = (figures["5xx"] ?? 0) + 1;
        else if (reply.status >= 400) figures["4xx"] = (figures["4xx"] ?? 0) + 1;
        const problems = invalidInputProblems(reply);
        if (world.log.writes > 0) problems.push(`${world.log.writes} DynamoDB writes (${show(world.log.snapshot())})`);
        if (problems.length)
          failures.add(
            `${tool}, ${input.defect}: ${show(input.raw ?? input.body, 300)}${input.get ? " (GET)" : ""} → ${reply.status} ${show(reply.text, 300)}: ${problems.join("; ")}`,
          );
      }
    }

    // The same kinds of input from a seller: its tools refuse them as they do a customer's, the two it may not use
    // refuse every input before looking at it, and neither writes anything.
    const sellerPerTool = options.sellerPerTool ?? Math.ceil(options.perTool / 5);
    for (const tool of Object.keys(toolFields) as ToolName[]) {
      for (const input of fc.sample(inputs(tool), { numRuns: sellerPerTool, seed: seed + tool.length + 1 })) {
        world.log.reset();
        const reply = await world.call(tool, orderSeller, input.raw ?? input.body, {
          raw: input.raw !== undefined,
          get: input.get === true,
        });
        figures.inputs = (figures.inputs ?? 0) + 1;
        figures["seller inputs"] = (figures["seller inputs"] ?? 0) + 1;
        figures.writes = (figures.writes ?? 0) + world.log.writes;
        if (reply.status >= 500) figures["5xx"] = (figures["5xx"] ?? 0) + 1;
        else if (reply.status >= 400) figures["4xx"] = (figures["4xx"] ?? 0) + 1;
        const problems: string[] = [];
        if (notForSellers.has(tool)) {
          if (reply.status !== 403 || reply.body?.error?.code !== "FORBIDDEN") problems.push(`status ${reply.status}, not 403 FORBIDDEN`);
          else if (JSON.stringify(reply.body.error.allowedPrincipals) !== JSON.stringify(["customer", "support"]))
            problems.push(`allowedPrincipals ${show(reply.body.error.allowedPrincipals)}`);
          if (world.log.total > 0) problems.push(`${world.log.total} DynamoDB requests before the refusal (${show(world.log.snapshot())})`);
        } else {
          problems.push(...invalidInputProblems(reply));
          if (world.log.writes > 0) problems.push(`${world.log.writes} DynamoDB writes (${show(world.log.snapshot())})`);
        }
        if (problems.length)
          failures.add(
            `${tool} as a seller, ${input.defect}: ${show(input.raw ?? input.body, 300)} → ${reply.status} ${show(reply.text, 300)}: ${problems.join("; ")}`,
          );
      }
    }

    // Notes with characters of every class, classified by the contract's rules.
    let kept = 0;
    let refused = 0;
    for (const note of fc.sample(noteInputs, { numRuns: options.notes, seed })) {
      const verdict = noteVerdict(note);
      const request = { operationId: newOperationId("op-note"), orderId: "SU-99999", expectedVersion: 1, deliveryNote: note };
      world.log.reset();
      const reply = await world.call("add_delivery_note", owner, request);
      figures.inputs = (figures.inputs ?? 0) + 1;
      if (reply.status >= 500) figures["5xx"] = (figures["5xx"] ?? 0) + 1;
      else if (reply.status >= 400) figures["4xx"] = (figures["4xx"] ?? 0) + 1;
      const problems: string[] = [];
      if (verdict.ok) {
        kept++;
        // Valid: it reaches the order lookup, which finds nothing: a recorded ORDER_NOT_FOUND.
        if (reply.status !== 404 || reply.body?.error?.code !== "ORDER_NOT_FOUND")
          problems.push(`The contract keeps this note (as ${show(verdict.text)}), so it must pass validation`);
      } else {
        refused++;
        figures.writes = (figures.writes ?? 0) + world.log.writes;
        problems.push(...invalidInputProblems(reply));
        const issue = reply.body?.error?.issues?.[0];
        if (issue && issue.path !== "deliveryNote") problems.push(`the issue names ${issue.path}, not deliveryNote`);
        if (issue && verdict.position > 0 && !new RegExp(`\\b${verdict.position}\\b`).test(issue.message))
          problems.push(`the message does not name position ${verdict.position}`);
        if (world.log.writes > 0) problems.push(`${world.log.writes} DynamoDB writes`);
      }
      if (problems.length)
        failures.add(
          `add_delivery_note with note ${JSON.stringify(note)} → ${reply.status} ${show(reply.text, 300)}: ${problems.join("; ")}`,
        );
    }
    figures["notes kept"] = kept;
    figures["notes refused"] = refused;
    return {
      part: "fuzz",
      figures: { ...figures, seed },
      failures: failures.list,
      failureCount: failures.count,
      seconds: (performance.now() - started) / 1000,
    };
  } finally {
    await world.destroy();
  }
}

/** contract §3 for a refused input: 400, `{"error": {code: INVALID_INPUT, message, retryable: false, issues: [{path, message}, …]}}` and nothing else. */
function invalidInputProblems(reply: Reply): string[] {
  const problems: string[] = [];
  if (reply.status !== 400) problems.push(`status ${reply.status}, not 400`);
  if (reply.body === undefined) return [...problems, "the body is not JSON"];
  if (Object.keys(reply.body).join(",") !== "error") problems.push(`top-level fields ${Object.keys(reply.body).join(",")}`);
  const error = reply.body.error ?? {};
  if (error.code !== "INVALID_INPUT") problems.push(`code ${error.code}`);
  if (typeof error.message !== "string" || error.message.trim() === "") problems.push("no message");
  if (error.retryable !== false) problems.push("retryable is not false");
  const extra = Object.keys(error).filter((k) => !["code", "message", "retryable", "issues"].includes(k));
  if (extra.length) problems.push(`extra error fields ${extra.join(",")}`);
  const issues = error.issues;
  if (!Array.isArray(issues) || issues.length === 0) problems.push("issues is not a non-empty list");
  else if (
    !issues.every(
      (i: unknown) =>
        typeof i === "object" &&
        i !== null &&
        typeof (i as { path?: unknown }).path === "string" &&
        typeof (i as { message?: unknown }).message === "string" &&
        (i as { message: string }).message.trim() !== "",
    )
  ) {
    problems.push("an issue lacks a path or a message");
  }
  if (/\bat .+\.(ts|js):\d+/.test(reply.text)) problems.push("a stack trace in the body");
  if (reply.headers["content-type"] !== "application/json") problems.push(`content-type ${reply.headers["content-type"]}`);
  return problems;
}

// ——— searches: valid inputs, extreme days, answered in time ———

/** A tool function's timeout (lib/tool-function.ts): an answer later than this is no answer, deployed. */
export const searchAnswerBoundMs = 10_000;
/** More DynamoDB requests than this for one search is a fan-out out of proportion to any answer it can give. */
export const searchRequestBound = 100;
/** contract §5: the last day a search covers. */
const lastSearchableDay = "9998-12-31";

const dayMs = 86_400_000;
const dayNumber = (day: string) => Date.parse(`${day}T00:00:00Z`) / dayMs;
/** The day `n` days after `day`, or undefined past the four-digit years (which no schema-valid day is). */
function shifted(day: string, n: number): string | undefined {
  const moved = new Date((dayNumber(day) + n) * dayMs).toISOString();
  return /^\d{4}-/.test(moved) ? moved.slice(0, 10) : undefined;
}

/** The searchable world: ids that share digit runs, days at the ends of the four-digit years and across month ends. */
const searchCustomers = customers(["C-1001", "C-1002"]);
function searchOrder(id: string, customerId: string, sellerId: string, placedAt: string, deliveredAt: string | null = null) {
  const base = orderItem(id, todayUtc(), { customerId, sellerId, status: deliveredAt ? "delivered" : "processing" });
  return { ...base, placedAt, deliveredAt };
}
const searchOrders = [
  searchOrder("SU-10001", "C-1001", "SLR-2210", `${todayUtc()}T09:12:00Z`),
  searchOrder("SU-10002", "C-1001", "SLR-1", "0000-01-01T00:00:00Z", "0000-01-03T10:00:00Z"),
  searchOrder("SU-10010", "C-1002", "SLR-2210", "9998-12-20T08:00:00Z", "9998-12-31T23:59:59Z"),
  searchOrder("SU-10100", "C-1001", "SLR-2210", "1970-01-01T00:00:00Z"),
  searchOrder("SU-21001", "C-1002", "SLR-1", "2026-01-31T23:59:59Z", "2026-02-01T00:00:00Z"),
  searchOrder("SU-88421", "C-1001", "SLR-2210", "2025-12-31T12:00:00Z", "2026-03-31T23:59:59Z"),
  searchOrder("SU-84210", "C-1002", "SLR-2210", "9998-09-30T00:00:00Z"),
  searchOrder("SU-42177", "C-1001", "SLR-2210", "2024-02-29T12:00:00Z", "2024-03-01T09:00:00Z"),
  ...[1, 2, 3, 4, 5, 6].map((n) => searchOrder(`SU-5550${n}`, n % 2 ? "C-1001" : "C-1002", "SLR-2210", `2026-06-15T10:00:0${n}Z`)),
];
const searchers = [customer("C-1001"), customer("C-1002"), support("S-7"), seller("SLR-2210"), seller("SLR-1")];

const edgeDays = [
  "0000-01-01",
  "0000-02-29",
  "0001-01-01",
  "1969-12-31",
  "1970-01-01",
  "2024-02-29",
  "2025-12-31",
  "2026-01-31",
  "2026-06-15",
  "9998-09-30",
  "9998-12-31",
  "9999-01-01",
  "9999-10-01",
  "9999-12-31",
];
const anyDay = fc
  .integer({ min: dayNumber("0000-01-01"), max: dayNumber("9999-12-31") })
  .map((n) => new Date(n * dayMs).toISOString().slice(0, 10));
const searchDay = fc.oneof(
  { weight: 3, arbitrary: fc.tuple(pick(edgeDays), fc.integer({ min: -100, max: 100 })).map(([day, n]) => shifted(day, n)) },
  { weight: 1, arbitrary: anyDay },
);
const searchRangeDays = fc.oneof(pick([1, 2, 29, 31, 62, 91, 92]), fc.integer({ min: 1, max: 92 }));
type SearchRange = { dateField: "placed" | "delivered"; from: string; to: string };
const searchRange = fc
  .oneof(
    { weight: 2, arbitrary: fc.tuple(searchDay, searchRangeDays).map(([from, days]) => [from, from && shifted(from, days - 1)]) },
    // Ranges that end in the last weeks of a year at the end of the four-digit years: where month arithmetic on text ran off.
    {
      weight: 1,
      arbitrary: fc.tuple(pick(["9998-12-31", "9999-12-31"]), fc.integer({ min: 0, max: 40 }), searchRangeDays).map(([end, back, days]) => {
        const to = shifted(end, -back);
        return [to && shifted(to, 1 - days), to];
      }),
    },
  )
  .chain(([from, to]) => pick(["placed", "delivered"] as const).map((dateField) => ({ dateField, from, to })))
  .filter((range): range is SearchRange => range.from !== undefined && range.to !== undefined);
const searchIdDigits = fc.oneof(
  pick(searchOrders.map((o) => o.id)),
  fc
    .tuple(pick(searchOrders.map((o) => o.id.slice(3))), fc.integer({ min: 0, max: 2 }), fc.integer({ min: 3, max: 5 }), fc.boolean())
    .map(([digits, start, length, prefixed]) => `${prefixed ? "SU-" : ""}${digits.slice(start, start + length)}`)
    .filter((fragment) => /^(SU-)?\d{3,5}$/.test(fragment)),
  fc.stringMatching(/^\d{3,5}$/),
);
const searchEmail = fc
  .tuple(pick([...searchCustomers.map((c) => c.email), "nobody@example.com"]), fc.boolean())
  .map(([email, shout]) => (shout ? email.toUpperCase() : email));

interface SearchInput {
  email?: string;
  orderId?: string;
  dateRange?: SearchRange;
  limit?: number;
}
export const searchInputs: fc.Arbitrary<SearchInput> = fc
  .record({
    email: fc.oneof({ weight: 2, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: searchEmail }),
    orderId: fc.option(searchIdDigits, { nil: undefined, freq: 2 }),
    dateRange: fc.option(searchRange, { nil: undefined, freq: 5 }),
    limit: fc.option(fc.integer({ min: 1, max: 20 }), { nil: undefined }),
  })
  .map((input) => Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)) as SearchInput)
  .filter((input) => input.email !== undefined || input.orderId !== undefined || input.dateRange !== undefined);

type SearchOracle = { status: 400; because: string } | { status: 200; orderIds: string[]; truncated: boolean };

/** What contract §5 says a search finds in `searchOrders` for this caller, written from the contract alone. */
function searchOracle(caller: (typeof searchers)[number], input: SearchInput): SearchOracle {
  const { dateRange } = input;
  if (dateRange && (dateRange.from > lastSearchableDay || dateRange.to > lastSearchableDay))
    return { status: 400, because: `a day past ${lastSearchableDay}` };
  const customerId = caller.claims.customer_id;
  const sellerId = caller.claims.seller_id;
  if (!customerId && !sellerId && input.email === undefined && input.orderId === undefined)
    return { status: 400, because: "support searches need an email or an orderId" };
  if (sellerId && input.email !== undefined) return { status: 400, because: "a seller does not search by e-mail" };
  const digits = input.orderId?.replace(/^SU-/, "");
  const owner = input.email && searchCustomers.find((c) => c.email === input.email?.toLowerCase())?.id;
  const found = searchOrders
    .filter((o) => (customerId ? o.customerId === customerId : sellerId ? o.sellerId === sellerId : true))
    .filter((o) => input.email === undefined || o.customerId === owner)
    .filter((o) => digits === undefined || o.id.slice(3).includes(digits))
    .filter((o) => {
      if (!dateRange) return true;
      const at = dateRange.dateField === "placed" ? o.placedAt : o.deliveredAt;
      return at !== null && at.slice(0, 10) >= dateRange.from && at.slice(0, 10) <= dateRange.to;
    })
    .sort((a, b) => (a.placedAt === b.placedAt ? b.id.localeCompare(a.id) : b.placedAt.localeCompare(a.placedAt)));
  const limit = input.limit ?? 10;
  return { status: 200, orderIds: found.slice(0, limit).map((o) => o.id), truncated: found.length > limit };
}

/**
 * Generated schema-valid searches from every kind of principal, each raced against the function's time budget:
 * a search that does not answer in time stops the run (what it started may still be running). DynamoDB requests
 * past `searchRequestBound` for one search are refused, so a runaway fan-out fails the search instead of the process.
 */
export async function runSearchFuzz(endpoint: string, options: { inputs: number; seed?: number }): Promise<PartReport> {
  const started = performance.now();
  const seed = options.seed ?? Date.now() % 2 ** 31;
  const world = await reliabilityWorld(endpoint, {
    sellers: baseSellers,
    policies: basePolicies,
    customers: searchCustomers,
    orders: searchOrders,
  });
  let requests = 0;
  world.log.hooks.push({
    before(request) {
      if (request.layer !== "outer") return;
      if (++requests > searchRequestBound) throw new Error(`more than ${searchRequestBound} DynamoDB requests for one search`);
    },
  });
  const failures = new Failures();
  const figures: Record<string, number> = { "search inputs": 0, "search 200": 0, "search 400": 0, "search worst (ms)": 0 };
  const latencies: number[] = [];
  let mostRequests = 0;
  try {
    const samples = fc.sample(fc.tuple(pick(searchers), searchInputs), { numRuns: options.inputs, seed });
    for (const [caller, input] of samples) {
      requests = 0;
      const began = performance.now();
      let timer: NodeJS.Timeout | undefined;
      const reply = await Promise.race([
        world.call("search_orders", caller, input),
        new Promise<undefined>((resolve) => {
          timer = setTimeout(resolve, searchAnswerBoundMs, undefined);
        }),
      ]);
      clearTimeout(timer);
      const ms = performance.now() - began;
      latencies.push(ms);
      mostRequests = Math.max(mostRequests, requests);
      figures["search inputs"] = (figures["search inputs"] ?? 0) + 1;
      const who = caller.claims.customer_id ?? caller.claims.seller_id ?? "support";
      const shown = `search_orders as ${who} ${show(input, 300)}`;
      if (!reply) {
        failures.add(`${shown}: no answer within ${searchAnswerBoundMs / 1000} s; the run stops here`);
        break;
      }
      if (reply.status === 200 || reply.status === 400) figures[`search ${reply.status}`] = (figures[`search ${reply.status}`] ?? 0) + 1;
      const expected = searchOracle(caller, input);
      const answered = `${reply.status} ${show(reply.text, 300)}`;
      if (expected.status === 400) {
        const problems = invalidInputProblems(reply);
        if (expected.because.startsWith("a day past") && !reply.text.includes(lastSearchableDay))
          problems.push(`the message does not give the last day a search covers (${lastSearchableDay})`);
        if (problems.length)
          failures.add(`${shown} → ${answered}: contract §5 refuses it (${expected.because}), but ${problems.join("; ")}`);
      } else if (reply.status !== 200) {
        failures.add(`${shown} → ${answered}: contract §5 finds ${show(expected.orderIds)} here`);
      } else {
        const got = (reply.body?.orders ?? []).map((o: { orderId: string }) => o.orderId);
        if (JSON.stringify(got) !== JSON.stringify(expected.orderIds) || reply.body?.truncated !== expected.truncated)
          failures.add(
            `${shown} → ${show(got)} truncated ${reply.body?.truncated}: contract §5 finds ${show(expected.orderIds)} truncated ${expected.truncated}`,
          );
      }
    }
    const sorted = [...latencies].sort((a, b) => a - b);
    figures["search worst (ms)"] = Math.round(sorted.at(-1) ?? 0);
    figures["search p50 (ms)"] = Math.round(percentile(sorted, 50));
    figures["search most DynamoDB requests"] = mostRequests;
    return {
      part: "search fuzz",
      figures: { ...figures, seed },
      failures: failures.list,
      failureCount: failures.count,
      seconds: (performance.now() - started) / 1000,
    };
  } finally {
    await world.destroy();
  }
}
