import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { describe, expect, it } from "vitest";
import { type CatalogEntry, type JsonSchema, toolCatalog } from "#contract/json-schema";
import { modelTools } from "#contract/model-tools";

/**
 * The description lint, over every tool and every field the catalogue publishes (inputs and outputs, at every
 * depth) and over the descriptions models are given (the registry's, minus what concerns operationId):
 *
 * - every property is described;
 * - nothing names a consumer: a support queue or desk, tickets, a named assistant, agent product or model vendor
 *   (contract §5: descriptions describe the domain);
 * - each tool says when to use it ("Use it when/before/to …") and what it returns ("Returns …");
 * - length budgets: a tool 1,200 characters (Bedrock's limit on a function description) and 160 tokens, a field
 *   500 characters (Bedrock's limit on a parameter description) and 80 tokens; tokens are o200k_base.
 */

const budgets = { toolCharacters: 1200, toolTokens: 160, fieldCharacters: 500, fieldTokens: 80 } as const;

const consumerWording: RegExp[] = [
  /\bsupport (queue|ticket|team|desk|agent|rep|representative)s?\b/i,
  /\btickets?\b/i,
  /\bqueues?\b/i,
  /\bhelp ?desk\b/i,
  /\b(chat ?bots?|assistants?|copilots?|virtual agents?|agents?)\b/i,
  /\b(Claude|ChatGPT|GPT-?\d[\w.]*|Gemini|Alexa|Siri|Bedrock|AgentCore|Lex|Dialogflow|Zendesk|Intercom|Freshdesk|Salesforce|ServiceNow|OpenAI|Anthropic)\b/,
];
const saysWhen = /\bUse it (when|before|after|to|for)\b/;
const saysReturns = /\bReturns\b/;

interface Described {
  where: string;
  kind: "tool" | "field" | "schema";
  text: string | undefined;
}

/** Every description of a catalogue entry: the tool's, each schema's, and each property's at every depth. */
function descriptionsOf(entry: Pick<CatalogEntry, "name" | "description" | "inputSchema" | "outputSchema">): Described[] {
  const found: Described[] = [{ where: entry.name, kind: "tool", text: entry.description }];
  const walk = (node: unknown, where: string, kind: Described["kind"]) => {
    if (node === null || typeof node !== "object") return;
    const schema = node as JsonSchema;
    if (kind === "field" || typeof schema.description === "string")
      found.push({ where, kind, text: schema.description as string | undefined });
    for (const [name, property] of Object.entries((schema.properties as Record<string, unknown> | undefined) ?? {}))
      walk(property, `${where}.${name}`, "field");
    if (schema.items) walk(schema.items, `${where}[]`, "schema");
    for (const key of ["anyOf", "oneOf", "allOf"])
      for (const [i, branch] of ((schema[key] as unknown[] | undefined) ?? []).entries()) walk(branch, `${where}<${i}>`, "schema");
  };
  walk(entry.inputSchema, `${entry.name} input`, "schema");
  walk(entry.outputSchema, `${entry.name} output`, "schema");
  return found;
}

/** What the lint finds wrong with these descriptions; empty when nothing is. */
function lintDescriptions(entries: ReadonlyArray<Pick<CatalogEntry, "name" | "description" | "inputSchema" | "outputSchema">>): string[] {
  const problems: string[] = [];
  for (const entry of entries) {
    for (const { where, kind, text } of descriptionsOf(entry)) {
      if (typeof text !== "string" || text.trim() === "") {
        if (kind !== "schema") problems.push(`${where}: no description`);
        continue;
      }
      for (const pattern of consumerWording) {
        const match = pattern.exec(text);
        if (match) problems.push(`${where}: names a consumer ("${match[0]}")`);
      }
      const [characters, tokens] =
        kind === "tool" ? [budgets.toolCharacters, budgets.toolTokens] : [budgets.fieldCharacters, budgets.fieldTokens];
      if (text.length > characters) problems.push(`${where}: ${text.length} characters, over ${characters}`);
      const count = countTokens(text);
      if (count > tokens) problems.push(`${where}: ${count} tokens, over ${tokens}`);
      if (kind === "tool") {
        if (!saysWhen.test(text)) problems.push(`${where}: does not say when to use it ("Use it when …")`);
        if (!saysReturns.test(text)) problems.push(`${where}: does not say what it returns ("Returns …")`);
      }
    }
  }
  return problems;
}

const catalog = toolCatalog().tools;

describe("the description lint", () => {
  it("finds nothing in the catalogue: every tool and every field, inputs and outputs, at every depth", () => {
    expect(lintDescriptions(catalog)).toEqual([]);
    // It does reach deep fields and every tool.
    const all = catalog.flatMap(descriptionsOf);
    expect(all.filter((d) => d.kind === "tool")).toHaveLength(catalog.length);
    expect(all.map((d) => d.where)).toContain("get_order output.items[].description<0>.sellerId");
  });

  it("finds nothing in what models are given, the descriptions without what concerns operationId", () => {
    const model = modelTools().map((tool) => ({
      name: tool.name,
      description: tool.description,
      inputSchema: tool.inputSchema,
      outputSchema: {},
    }));
    expect(lintDescriptions(model)).toEqual([]);
  });

  it("finds what it is there to find", () => {
    const entry = (description: string, property: JsonSchema) => ({
      name: "probe",
      description,
      inputSchema: {
        type: "object",
        properties: {
          orderId: property,
          nested: { type: "object", description: "A nested part.", properties: { deep: { type: "string" } } },
        },
      },
      outputSchema: { type: "object", properties: {} },
    });
    const good = "Use it when testing. Returns nothing.";
    expect(lintDescriptions([entry(good, { type: "string", description: "The order." })])).toEqual([
      "probe input.nested.deep: no description",
    ]);
    expect(
      lintDescriptions([
        entry("Open a support ticket for the order. Returns the ticket.", { type: "string", description: "Ask the Claude assistant." }),
      ]),
    ).toEqual([
      'probe: names a consumer ("support ticket")',
      'probe: names a consumer ("ticket")',
      'probe: does not say when to use it ("Use it when …")',
      'probe input.orderId: names a consumer ("assistant")',
      'probe input.orderId: names a consumer ("Claude")',
      "probe input.nested.deep: no description",
    ]);
    expect(lintDescriptions([entry("Cancels an order.", { type: "string", description: "x ".repeat(260) })])).toEqual(
      expect.arrayContaining([
        'probe: does not say what it returns ("Returns …")',
        "probe input.orderId: 520 characters, over 500",
        expect.stringMatching(/^probe input\.orderId: \d+ tokens, over 80$/),
      ]),
    );
  });
});
