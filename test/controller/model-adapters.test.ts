import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createController } from "#controller/controller";
import { anthropicModel } from "#controller/model/anthropic";
import { openaiModel } from "#controller/model/openai";
import { loadRecording, RecordingExhaustedError, recordedModel, replayFetch } from "#controller/model/recorded";
import type { ModelAdapter } from "#controller/model/types";
import { exportTools } from "#controller/tools/formats";
import { repoRoot } from "#scripts/local/stack";
import { type ServiceWorld, startService, watchedFetch } from "#test/controller/support/service";

/**
 * The two real adapters, through the official SDKs, answered by recorded wire-format responses (a custom fetch
 * serves them, so the SDK's own request building and parsing run), in a conversation with the real service.
 * Nothing leaves this machine: the SDK clients are given the replaying fetch and no retries.
 */
let service: ServiceWorld;
beforeAll(async () => {
  service = await startService();
});
afterAll(async () => service?.close());

/** The recording names SU-97771: block 777's order. Each test has its own block, since a cancelled order stays cancelled. */
let orderId = "SU-97771";
let nextBlock = 777;

async function conversationWith(model: ModelAdapter) {
  const world = await service.freshWorld(nextBlock++);
  expect(world.orders.success).toBe(orderId);
  const fetch = watchedFetch();
  const controller = createController({ service: { baseUrl: service.gatewayUrl, token: await service.token(world.ana.customerId), fetch }, model });
  return { world, fetch, conversation: controller.conversation(`adapter-${model.name}`) };
}

const chatCompletion = (id: string, message: Record<string, unknown>, finish: string) => ({
  id,
  object: "chat.completion",
  created: 1_764_000_000,
  model: "gpt-4.1-mini-2025-04-14",
  choices: [{ index: 0, message: { role: "assistant", refusal: null, annotations: [], ...message }, logprobs: null, finish_reason: finish }],
  usage: { prompt_tokens: 1900, completion_tokens: 40, total_tokens: 1940 },
  system_fingerprint: "fp_recorded",
});

describe("anthropic adapter (Messages API, tool_use / tool_result), replayed from a recording", () => {
  it("proposes, gets the service's results as tool_result blocks, and its reply passes the gate", async () => {
    const recording = await loadRecording(join(repoRoot, "test/controller/recordings/anthropic-cancel.json"));
    const model = recordedModel(recording);
    const { fetch, conversation } = await conversationWith(model);
    const message = `Please cancel order ${orderId} before it ships.`;
    const turn = await conversation.turn(message);

    expect(turn.reply).toBe(`Order ${orderId} is cancelled.`);
    expect(turn.replyKind).toBe("confirmation");
    expect(await service.order(orderId)).toMatchObject({ status: "cancelled", version: 2 });
    const cancel = fetch.requests.find((r) => r.tool === "cancel_order");
    expect(cancel?.body).toEqual({ operationId: expect.stringMatching(/^op-/), orderId, reason: "Ordered by mistake" });

    // What the SDK sent, as the Messages API takes it.
    const sent = model.fetch.requests;
    expect(sent).toHaveLength(3);
    expect(sent[0]?.url).toBe("http://recorded.invalid/v1/messages");
    const first = sent[0]?.body as Record<string, any>;
    expect(first).toMatchObject({ model: "claude-sonnet-4-5", max_tokens: 1024, system: expect.stringContaining("signed-in customer") });
    expect(first.tools).toEqual(exportTools("anthropic"));
    expect(first.messages).toEqual([{ role: "user", content: [{ type: "text", text: `[message from the signed-in user] ${message}` }] }]);
    const second = (sent[1]?.body as Record<string, any>).messages;
    expect(second[1]).toEqual({
      role: "assistant",
      content: [
        { type: "text", text: "I'll look at that order first." },
        { type: "tool_use", id: "toolu_01A09q90qw90lq917835lq9", name: "get_order", input: { orderId } },
      ],
    });
    expect(second[2].role).toBe("user");
    expect(second[2].content[0]).toMatchObject({ type: "tool_result", tool_use_id: "toolu_01A09q90qw90lq917835lq9" });
    expect(JSON.parse(second[2].content[0].content)).toMatchObject({ orderId, status: "placed", version: 1, allowedActions: expect.arrayContaining(["cancel_order"]) });
    const third = (sent[2]?.body as Record<string, any>).messages.at(-1);
    expect(third.content).toEqual([{ type: "tool_result", tool_use_id: "toolu_01B7s8d7f6g5h4j3k2l1", content: JSON.stringify({ status: "completed", orderId, orderVersion: 2, orderStatus: "cancelled" }) }]);
    expect(JSON.stringify(sent.map((r) => r.body))).not.toContain("op-");
  });

  it("a recording that runs out says so; the turn ends honestly instead of guessing", async () => {
    orderId = "SU-97781";
    const model = anthropicModel({ model: "claude-sonnet-4-5", apiKey: "test", baseURL: "http://recorded.invalid", fetch: replayFetch([]), maxRetries: 0 });
    const { conversation, fetch } = await conversationWith(model);
    const turn = await conversation.turn(`Cancel ${orderId}`);
    expect(turn.trace.events.find((e) => e.type === "model_error")).toMatchObject({ message: expect.stringContaining("no response left") });
    expect(turn.reply).toBe("I couldn't finish working on that just now. I haven't changed anything on your orders.");
    expect(fetch.requests).toEqual([]);
    expect(new RecordingExhaustedError(0).message).toMatch(/no response left after 0/);
  });
});

describe("openai adapter (chat completions, strict function tools), replayed through the official SDK", () => {
  it("parses tool calls, treats the nulls of strict mode as absent, and sends results as tool messages", async () => {
    orderId = "SU-97791";
    const responses = [
      chatCompletion("chatcmpl-1", { content: null, tool_calls: [{ id: "call_get", type: "function", function: { name: "get_order", arguments: JSON.stringify({ orderId }) } }] }, "tool_calls"),
      chatCompletion(
        "chatcmpl-2",
        { content: null, tool_calls: [{ id: "call_cancel", type: "function", function: { name: "cancel_order", arguments: JSON.stringify({ orderId, expectedVersion: 1, reason: null }) } }] },
        "tool_calls",
      ),
      chatCompletion("chatcmpl-3", { content: `Order ${orderId} is cancelled.` }, "stop"),
    ];
    const fetch = replayFetch(responses);
    const model = openaiModel({ model: "gpt-4.1-mini", apiKey: "test", baseURL: "http://127.0.0.1:1/v1", fetch, maxRetries: 0 });
    const { fetch: service_, conversation } = await conversationWith(model);
    const turn = await conversation.turn(`Cancel ${orderId}, please`);

    expect(turn.reply).toBe(`Order ${orderId} is cancelled.`);
    expect(turn.replyKind).toBe("confirmation");
    expect(await service.order(orderId)).toMatchObject({ status: "cancelled", version: 2 });
    // reason: null meant "not given": it is not sent.
    expect(service_.requests.find((r) => r.tool === "cancel_order")?.body).toEqual({ operationId: expect.stringMatching(/^op-/), orderId, expectedVersion: 1 });

    expect(fetch.requests.map((r) => r.url)).toEqual(Array(3).fill("http://127.0.0.1:1/v1/chat/completions"));
    const first = fetch.requests[0]?.body as Record<string, any>;
    expect(first.model).toBe("gpt-4.1-mini");
    expect(first.tools).toEqual(exportTools("openai"));
    expect(first.messages.map((m: { role: string }) => m.role)).toEqual(["system", "user"]);
    const second = (fetch.requests[1]?.body as Record<string, any>).messages;
    expect(second.slice(2)).toEqual([
      { role: "assistant", content: null, tool_calls: [{ id: "call_get", type: "function", function: { name: "get_order", arguments: JSON.stringify({ orderId }) } }] },
      { role: "tool", tool_call_id: "call_get", content: expect.stringContaining(`"orderId":"${orderId}"`) },
    ]);
    const third = (fetch.requests[2]?.body as Record<string, any>).messages.at(-1);
    expect(third).toEqual({ role: "tool", tool_call_id: "call_cancel", content: JSON.stringify({ status: "completed", orderId, orderVersion: 2, orderStatus: "cancelled" }) });
  });

  it("arguments that are not JSON get an INVALID_INPUT result and nothing is sent", async () => {
    orderId = "SU-97801";
    const responses = [
      chatCompletion("chatcmpl-1", { content: null, tool_calls: [{ id: "call_bad", type: "function", function: { name: "cancel_order", arguments: `{"orderId": "${orderId}"` } }] }, "tool_calls"),
      chatCompletion("chatcmpl-2", { content: "Sorry, something went wrong on my side." }, "stop"),
    ];
    const fetch = replayFetch(responses);
    const model = openaiModel({ model: "gpt-4.1-mini", apiKey: "test", baseURL: "http://127.0.0.1:1/v1", fetch, maxRetries: 0 });
    const { fetch: service_, conversation } = await conversationWith(model);
    const turn = await conversation.turn(`Cancel ${orderId}`);

    expect(service_.requests).toEqual([]);
    const result = (fetch.requests[1]?.body as Record<string, any>).messages.at(-1);
    expect(result.role).toBe("tool");
    expect(JSON.parse(result.content)).toMatchObject({ error: { code: "INVALID_INPUT", issues: [{ path: "", message: expect.stringContaining("not valid JSON") }] } });
    expect(turn.replyKind).toBe("information");
    expect(await service.order(orderId)).toMatchObject({ status: "placed", version: 1 });
  });
});
