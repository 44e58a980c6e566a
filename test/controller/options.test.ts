import { describe, expect, it } from "vitest";
import { modelTools } from "#contract/model-tools";
import { createController } from "#controller/controller";
import { FileIntentStore } from "#controller/intents/file";
import { MemoryIntentStore } from "#controller/intents/memory";
import { ScriptExhaustedError, scriptedModel } from "#controller/model/scripted";

/**
 * A misconfigured controller fails where it is made, naming the option and what it takes — from plain JavaScript
 * too, where no type checker stands between a typo and the first turn. And a scripted model's steps are checked
 * where the script is written.
 */
const service = { baseUrl: "http://127.0.0.1:9", token: "t" };
const model = scriptedModel([{ say: "Hello." }]);

/** createController as plain JavaScript calls it: whatever it is given. */
const create = (options: unknown) => () => createController(options as never);

describe("createController's options", () => {
  it("without a model it throws, naming the option and the adapters that would do, before any turn", () => {
    expect(create({ service })).toThrow(
      new TypeError(
        "createController: model is required: a model adapter: anthropicModel({ model }), openaiModel({ model }) or bedrockModel({ modelId }) from order-tools/controller, or scriptedModel(steps) from order-tools/controller/testing.",
      ),
    );
  });

  it("a model adapter that is not one, or a Promise of one, is named as such", () => {
    expect(create({ service, model: "claude-sonnet-5-5" })).toThrow(
      /^createController: model must be a model adapter: .*, not "claude-sonnet-5-5"\.$/,
    );
    expect(create({ service, model: Promise.resolve(model) })).toThrow(
      "createController: model is a Promise: await it, or pass the adapter itself.",
    );
  });

  it("the service: required, no unknown fields, a string baseUrl, a non-empty token or a function", () => {
    expect(create({ model })).toThrow(/^createController: service is required: the order service, \{ baseUrl: /);
    expect(create({ model, service: { baseURL: "http://x", token: "t" } })).toThrow(
      'createController: service has no field "baseURL": it takes baseUrl, token, fetch, timeoutMs.',
    );
    expect(create({ model, service: { baseUrl: 3000, token: "t" } })).toThrow(
      'createController: service.baseUrl must be the service\'s URL as a string, like "http://127.0.0.1:3000", not 3000.',
    );
    expect(create({ model, service: { baseUrl: "http://x", token: "" } })).toThrow(
      "createController: service.token is empty: give the signed-in principal's bearer token, or a function that returns a current one.",
    );
    expect(create({ model, service: { baseUrl: "http://x" } })).toThrow(
      "createController: service.token must be the principal's bearer token (a string) or a function that returns one, not undefined.",
    );
    expect(create({ model, service: { baseUrl: "not a url", token: "t" } })).toThrow(
      'service.baseUrl must be an absolute http(s) URL like http://127.0.0.1:3000, not "not a url".',
    );
  });

  it("an option misspelt is named, with the options there are", () => {
    expect(create({ service, model, intent: new MemoryIntentStore() })).toThrow(
      /^createController: there is no option "intent"\. The options are: service, model, principal, intents, limits, /,
    );
  });

  it("tools: a name not among the model-facing tools, a bare name, or a tool twice", () => {
    const [search, get] = modelTools();
    expect(create({ service, model, tools: [get, { ...search, name: "get_orders" }] })).toThrow(
      'createController: tools[1] is named "get_orders", which is not a model-facing tool; they are search_orders, get_order, cancel_order, add_delivery_note, start_return, offer_replacement.',
    );
    expect(create({ service, model, tools: ["get_order"] })).toThrow(
      'createController: tools[0] is the string "get_order": tools takes the tool definitions, e.g. modelTools().filter((t) => t.name === "get_order").',
    );
    expect(create({ service, model, tools: [get, get] })).toThrow("createController: tools names get_order twice.");
    expect(create({ service, model, tools: modelTools().filter((t) => t.kind === "read") })).not.toThrow();
  });

  it("an intent store not yet opened (a Promise) or not a store, and callbacks that are not functions", () => {
    expect(create({ service, model, intents: new FileIntentStore("/tmp/never-opened.jsonl").open() })).toThrow(
      "createController: intents is a Promise: await it (const intents = await new FileIntentStore(path).open()).",
    );
    expect(create({ service, model, intents: {} })).toThrow(
      /^createController: intents must be an intent store, with the methods save, forConversation, resumable, acquireLease, releaseLease/,
    );
    expect(create({ service, model, trace: ".data/traces" })).toThrow(
      'createController: trace must be a trace sink, a function called with each turn\'s trace: traceDirectory(dir) or traceCollector().sink, not ".data/traces".',
    );
    expect(create({ service, model, confirm: true })).toThrow(
      'createController: confirm must be the changes that always wait for a yes: "all" (every change), { cancel_order: true, … }, or a function (tool, request) => boolean, not true.',
    );
    expect(create({ service, model, confirm: "some" })).toThrow(
      /^createController: confirm must be .*"all" \(every change\).*, not "some"\.$/,
    );
    expect(create({ service, model, limits: 8 })).toThrow(
      "createController: limits must be an object, { maxToolCalls, maxSeconds, maxMessageCharacters }, not 8.",
    );
  });

  it('confirm takes "all", a record of tools, or a function', () => {
    expect(create({ service, model, confirm: "all" })).not.toThrow();
    expect(create({ service, model, confirm: { cancel_order: true } })).not.toThrow();
    expect(create({ service, model, confirm: () => true })).not.toThrow();
  });

  it("not an object at all", () => {
    expect(create(undefined)).toThrow(
      "createController: it takes one options object, { service: { baseUrl, token }, model, … }, not undefined.",
    );
  });
});

describe("scriptedModel's steps", () => {
  it("a call of a tool the controller does not offer a model is refused where the script is written", () => {
    expect(() => scriptedModel([{ call: "get_orders", input: { orderId: "SU-10234" } }, { say: "Here." }])).toThrow(
      'scriptedModel: step 1 ({"call":"get_orders","input":{"orderId":"SU-10234"}}) calls "get_orders", which is not a tool the controller offers a model; they are search_orders, get_order, cancel_order, add_delivery_note, start_return, offer_replacement. (A script whose model invents a tool is a function: scriptedModel((request, i) => steps[i]).)',
    );
  });

  it("a step that is neither {call, input} nor {say} is named by its number", () => {
    expect(() => scriptedModel([{ say: "Hi." }, { call: "get_order" } as never])).toThrow(
      'scriptedModel: step 2 ({"call":"get_order"}) is neither {"call": <tool>, "input": <arguments>} nor {"say": <reply>}: a step is exactly one of these.',
    );
    expect(() => scriptedModel([{ reply: "Hi." } as never])).toThrow(/^scriptedModel: step 1 \(\{"reply":"Hi\."\}\) is neither/);
  });

  it("a script as a function may propose any tool: a model inventing one is what it tests", async () => {
    const inventing = scriptedModel(() => ({ call: "refund_order", input: {} }));
    expect((await inventing.respond({ system: "", messages: [], tools: [] })).toolCalls[0]?.name).toBe("refund_order");
  });

  it("running out says how many steps there were and which was asked for", async () => {
    const short = scriptedModel([{ say: "One." }]);
    await short.respond({ system: "", messages: [], tools: [] });
    await expect(short.respond({ system: "", messages: [], tools: [] })).rejects.toThrow(ScriptExhaustedError);
    expect(new ScriptExhaustedError(3).message).toBe(
      'the script has 3 steps and the controller asked for step 4. One script runs across all the turns of a conversation, and each turn ends at a {"say": …} step (a real model would have replied here): add the steps this turn needs.',
    );
  });
});
