import { join } from "node:path";
import { Readable } from "node:stream";
import { BedrockRuntimeClient } from "@aws-sdk/client-bedrock-runtime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createController } from "#controller/controller";
import { anthropicModel, toAnthropicMessages } from "#controller/model/anthropic";
import { bedrockModel, toConverseMessages } from "#controller/model/bedrock";
import { openaiModel } from "#controller/model/openai";
import {
  type AwsHttpRequest,
  loadRecording,
  RecordingExhaustedError,
  recordedModel,
  recordResponses,
  replayFetch,
} from "#controller/model/recorded";
import { type ModelAdapter, notePrefix } from "#controller/model/types";
import { exportTools } from "#controller/platforms/formats";
import { repoRoot } from "#local/stack";
import { type ServiceWorld, startService, watchedFetch } from "#test/controller/support/service-world";

/**
 * The three real adapters, through the official SDKs, answered by recorded wire-format responses (a custom fetch,
 * or for the AWS SDK a request handler, serves them, so the SDK's own request building, signing and parsing run),
 * in a conversation with the real service. Nothing leaves this machine: the SDK clients are given the replay and
 * no retries.
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
  const controller = createController({
    service: { baseUrl: service.gatewayUrl, token: await service.token(world.ana.customerId), fetch },
    model,
  });
  return { world, fetch, conversation: controller.conversation(`adapter-${model.name}`) };
}

const chatCompletion = (id: string, message: Record<string, unknown>, finish: string) => ({
  id,
  object: "chat.completion",
  created: 1_764_000_000,
  model: "gpt-4.1-mini-2025-04-14",
  choices: [
    { index: 0, message: { role: "assistant", refusal: null, annotations: [], ...message }, logprobs: null, finish_reason: finish },
  ],
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
    const sent = model.requests;
    expect(sent).toHaveLength(3);
    expect(sent[0]?.url).toBe("http://recorded.invalid/v1/messages");
    const first = sent[0]?.body as Record<string, any>;
    expect(first).toMatchObject({ model: "claude-sonnet-5-5", max_tokens: 1024, system: expect.stringContaining("signed-in customer") });
    expect(first.tools).toEqual(exportTools("anthropic"));
    expect(first.messages).toEqual([{ role: "user", content: [{ type: "text", text: `[message from the signed-in user] ${message}` }] }]);
    const second = (sent[1]!.body as Record<string, any>).messages;
    expect(second[1]).toEqual({
      role: "assistant",
      content: [
        { type: "text", text: "I'll look at that order first." },
        { type: "tool_use", id: "toolu_01A09q90qw90lq917835lq9", name: "get_order", input: { orderId } },
      ],
    });
    expect(second[2].role).toBe("user");
    expect(second[2].content[0]).toMatchObject({ type: "tool_result", tool_use_id: "toolu_01A09q90qw90lq917835lq9" });
    expect(JSON.parse(second[2].content[0].content)).toMatchObject({
      orderId,
      status: "placed",
      version: 1,
      allowedActions: expect.arrayContaining(["cancel_order"]),
    });
    const third = (sent[2]!.body as Record<string, any>).messages.at(-1);
    expect(third.content).toEqual([
      {
        type: "tool_result",
        tool_use_id: "toolu_01B7s8d7f6g5h4j3k2l1",
        content: JSON.stringify({ status: "completed", orderId, orderVersion: 2, orderStatus: "cancelled" }),
      },
    ]);
    expect(JSON.stringify(sent.map((r) => r.body))).not.toContain("op-");
  });

  it("a recording that runs out says so; the turn ends honestly instead of guessing", async () => {
    orderId = "SU-97781";
    const model = anthropicModel({
      model: "claude-sonnet-5-5",
      apiKey: "test",
      baseURL: "http://recorded.invalid",
      fetch: replayFetch([]),
      maxRetries: 0,
    });
    const { conversation, fetch } = await conversationWith(model);
    const turn = await conversation.turn(`Cancel ${orderId}`);
    expect(turn.trace.events.find((e) => e.type === "model_error")).toMatchObject({ message: expect.stringContaining("no response left") });
    expect(turn.reply).toBe("I couldn't finish working on that just now. I haven't changed anything on your orders.");
    expect(fetch.requests).toEqual([]);
    expect(new RecordingExhaustedError(0).message).toMatch(/no response left after 0/);
  });

  it("the conversation as Messages API messages: roles alternate, tool results first, no blank text and no empty message", () => {
    // The Messages API refuses a whitespace-only text block and a message with no content, as Converse does.
    const call = { id: "toolu_1", name: "get_order", input: { orderId: "SU-1" } };
    expect(
      toAnthropicMessages([
        { role: "customer", text: "Where is SU-1?" },
        { role: "assistant", text: "", toolCalls: [call] },
        { role: "tool", toolCallId: "toolu_1", content: '{"orderId":"SU-1"}', isError: true },
        { role: "note", text: "SU-1 was delivered yesterday." },
        { role: "assistant", text: "  ", toolCalls: [] },
        { role: "customer", text: " " },
        { role: "customer", text: "Thanks" },
      ]),
    ).toEqual([
      { role: "user", content: [{ type: "text", text: "[message from the signed-in user] Where is SU-1?" }] },
      { role: "assistant", content: [{ type: "tool_use", id: "toolu_1", name: "get_order", input: { orderId: "SU-1" } }] },
      {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: "toolu_1", content: '{"orderId":"SU-1"}', is_error: true },
          { type: "text", text: `${notePrefix}SU-1 was delivered yesterday.` },
          { type: "text", text: "[message from the signed-in user] Thanks" },
        ],
      },
    ]);
  });
});

describe("openai adapter (chat completions, strict function tools), replayed through the official SDK", () => {
  it("parses tool calls, treats the nulls of strict mode as absent, and sends results as tool messages", async () => {
    orderId = "SU-97791";
    const responses = [
      chatCompletion(
        "chatcmpl-1",
        {
          content: null,
          tool_calls: [{ id: "call_get", type: "function", function: { name: "get_order", arguments: JSON.stringify({ orderId }) } }],
        },
        "tool_calls",
      ),
      chatCompletion(
        "chatcmpl-2",
        {
          content: null,
          tool_calls: [
            {
              id: "call_cancel",
              type: "function",
              function: { name: "cancel_order", arguments: JSON.stringify({ orderId, expectedVersion: 1, reason: null }) },
            },
          ],
        },
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
    expect(service_.requests.find((r) => r.tool === "cancel_order")?.body).toEqual({
      operationId: expect.stringMatching(/^op-/),
      orderId,
      expectedVersion: 1,
    });

    expect(fetch.requests.map((r) => r.url)).toEqual(Array(3).fill("http://127.0.0.1:1/v1/chat/completions"));
    const first = fetch.requests[0]?.body as Record<string, any>;
    expect(first.model).toBe("gpt-4.1-mini");
    expect(first.tools).toEqual(exportTools("openai"));
    expect(first.messages.map((m: { role: string }) => m.role)).toEqual(["system", "user"]);
    const second = (fetch.requests[1]!.body as Record<string, any>).messages;
    expect(second.slice(2)).toEqual([
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "call_get", type: "function", function: { name: "get_order", arguments: JSON.stringify({ orderId }) } }],
      },
      { role: "tool", tool_call_id: "call_get", content: expect.stringContaining(`"orderId":"${orderId}"`) },
    ]);
    const third = (fetch.requests[2]!.body as Record<string, any>).messages.at(-1);
    expect(third).toEqual({
      role: "tool",
      tool_call_id: "call_cancel",
      content: JSON.stringify({ status: "completed", orderId, orderVersion: 2, orderStatus: "cancelled" }),
    });
  });

  it("arguments that are not JSON get an INVALID_INPUT result and nothing is sent", async () => {
    orderId = "SU-97801";
    const responses = [
      chatCompletion(
        "chatcmpl-1",
        {
          content: null,
          tool_calls: [{ id: "call_bad", type: "function", function: { name: "cancel_order", arguments: `{"orderId": "${orderId}"` } }],
        },
        "tool_calls",
      ),
      chatCompletion("chatcmpl-2", { content: "Sorry, something went wrong on my side." }, "stop"),
    ];
    const fetch = replayFetch(responses);
    const model = openaiModel({ model: "gpt-4.1-mini", apiKey: "test", baseURL: "http://127.0.0.1:1/v1", fetch, maxRetries: 0 });
    const { fetch: service_, conversation } = await conversationWith(model);
    const turn = await conversation.turn(`Cancel ${orderId}`);

    expect(service_.requests).toEqual([]);
    const result = (fetch.requests[1]!.body as Record<string, any>).messages.at(-1);
    expect(result.role).toBe("tool");
    expect(JSON.parse(result.content)).toMatchObject({
      error: { code: "INVALID_INPUT", issues: [{ path: "", message: expect.stringContaining("not valid JSON") }] },
    });
    expect(turn.replyKind).toBe("information");
    expect(await service.order(orderId)).toMatchObject({ status: "placed", version: 1 });
  });
});

/** A Converse response as the HTTP API returns it. */
const converse = (content: Record<string, unknown>[], stopReason: string) => ({
  output: { message: { role: "assistant", content } },
  stopReason,
  usage: { inputTokens: 2000, outputTokens: 40, totalTokens: 2040 },
  metrics: { latencyMs: 900 },
});

const noTools = { system: "s", tools: [] };

describe("bedrock adapter (Converse API, toolUse / toolResult), replayed through the AWS SDK's request handler", () => {
  it("proposes, gets the service's results as toolResult blocks, and its reply passes the gate", async () => {
    orderId = "SU-97811";
    const recording = await loadRecording(join(repoRoot, "test/controller/recordings/bedrock-cancel.json"));
    const model = recordedModel(recording);
    const { fetch, conversation } = await conversationWith(model);
    const message = `Please cancel order ${orderId} before it ships.`;
    const turn = await conversation.turn(message);

    expect(turn.reply).toBe(`Order ${orderId} is cancelled.`);
    expect(turn.replyKind).toBe("confirmation");
    expect(model.name).toBe("recorded:bedrock:global.anthropic.claude-sonnet-5-5");
    expect(await service.order(orderId)).toMatchObject({ status: "cancelled", version: 2 });
    expect(fetch.requests.find((r) => r.tool === "cancel_order")?.body).toEqual({
      operationId: expect.stringMatching(/^op-/),
      orderId,
      reason: "Ordered by mistake",
    });

    // What the SDK sent, as Converse takes it: the model in the path, the rest in the body.
    const sent = model.requests;
    expect(sent.map((r) => r.url)).toEqual(
      Array(3).fill("https://bedrock-runtime.us-east-1.amazonaws.com/model/global.anthropic.claude-sonnet-5-5/converse"),
    );
    const first = sent[0]?.body as Record<string, any>;
    expect(Object.keys(first).sort()).toEqual(["inferenceConfig", "messages", "system", "toolConfig"]);
    expect(first.system).toEqual([{ text: expect.stringContaining("signed-in customer") }]);
    expect(first.inferenceConfig).toEqual({ maxTokens: 1024 });
    expect(first.toolConfig).toEqual({ tools: exportTools("bedrock-converse") });
    expect(first.messages).toEqual([{ role: "user", content: [{ text: `[message from the signed-in user] ${message}` }] }]);
    const second = (sent[1]!.body as Record<string, any>).messages;
    expect(second[1]).toEqual({
      role: "assistant",
      content: [
        { text: "I'll look at that order first." },
        { toolUse: { toolUseId: "tooluse_kZJMlvQmRJ6eAyJE5GIl7Q", name: "get_order", input: { orderId } } },
      ],
    });
    expect(second[2].role).toBe("user");
    expect(Object.keys(second[2].content[0].toolResult).sort()).toEqual(["content", "toolUseId"]);
    expect(second[2].content[0].toolResult.toolUseId).toBe("tooluse_kZJMlvQmRJ6eAyJE5GIl7Q");
    expect(JSON.parse(second[2].content[0].toolResult.content[0].text)).toMatchObject({
      orderId,
      status: "placed",
      version: 1,
      allowedActions: expect.arrayContaining(["cancel_order"]),
    });
    const third = (sent[2]!.body as Record<string, any>).messages.at(-1);
    expect(third).toEqual({
      role: "user",
      content: [
        {
          toolResult: {
            toolUseId: "tooluse_Rb3iF8aBQ7uP2m0nW1xY4z",
            content: [{ text: JSON.stringify({ status: "completed", orderId, orderVersion: 2, orderStatus: "cancelled" }) }],
          },
        },
      ],
    });
    expect(JSON.stringify(sent.map((r) => r.body))).not.toContain("op-");
  });

  it("a proposal the registry refuses comes back as a toolResult with status error; nothing is sent", async () => {
    orderId = "SU-97821";
    const model = recordedModel({
      provider: "bedrock",
      model: "amazon.nova-pro-v1:0",
      responses: [
        converse([{ toolUse: { toolUseId: "tooluse_bad", name: "cancel_order", input: { orderId: "order 97821" } } }], "tool_use"),
        converse([{ text: "That order number doesn't look right. Could you check it?" }], "end_turn"),
      ],
    });
    const { fetch: service_, conversation } = await conversationWith(model);
    const turn = await conversation.turn("Cancel order 97821");

    expect(service_.requests).toEqual([]);
    expect(model.requests[0]?.url).toBe("https://bedrock-runtime.us-east-1.amazonaws.com/model/amazon.nova-pro-v1%3A0/converse");
    const result = (model.requests[1]!.body as Record<string, any>).messages.at(-1).content[0].toolResult;
    expect(result.status).toBe("error");
    expect(result.toolUseId).toBe("tooluse_bad");
    expect(JSON.parse(result.content[0].text)).toMatchObject({ error: { code: "INVALID_INPUT", issues: [{ path: "orderId" }] } });
    expect(turn.replyKind).toBe("information");
    expect(await service.order(orderId)).toMatchObject({ status: "placed", version: 1 });
  });

  it("a recording that runs out says so, and an aborted turn's signal reaches the SDK: no response is taken", async () => {
    orderId = "SU-97831";
    const model = recordedModel({ provider: "bedrock", model: "global.anthropic.claude-sonnet-5-5", responses: [] });
    const { conversation, fetch } = await conversationWith(model);
    const turn = await conversation.turn(`Cancel ${orderId}`);
    expect(turn.trace.events.find((e) => e.type === "model_error")).toMatchObject({
      message: expect.stringContaining("no response left after 0"),
    });
    expect(turn.reply).toBe("I couldn't finish working on that just now. I haven't changed anything on your orders.");
    expect(fetch.requests).toEqual([]);

    const spare = recordedModel({ provider: "bedrock", model: "m", responses: [converse([{ text: "never read" }], "end_turn")] });
    await expect(
      spare.respond({ ...noTools, messages: [{ role: "customer", text: "hi" }], signal: AbortSignal.abort() }),
    ).rejects.toMatchObject({ name: "AbortError" });
    expect(spare.requests).toEqual([]);
    expect(await spare.respond({ ...noTools, messages: [{ role: "customer", text: "hi" }] })).toEqual({
      text: "never read",
      toolCalls: [],
      stopReason: "end_turn",
    });
  });

  it("a client of your own is used as it is, e.g. one whose live responses are being recorded (--record)", async () => {
    // A handler that answers like the SDK's Node handler, with the body as a stream.
    const body = converse([{ text: "Order SU-1 is on its way." }], "end_turn");
    const sentTo: string[] = [];
    const streaming = {
      async handle(request: AwsHttpRequest) {
        sentTo.push(`${request.hostname}${request.path}`);
        return {
          response: {
            statusCode: 200,
            headers: { "content-type": "application/json" },
            body: Readable.from([Buffer.from(JSON.stringify(body))]),
          },
        };
      },
    };
    const client = new BedrockRuntimeClient({
      region: "eu-west-1",
      credentials: { accessKeyId: "test", secretAccessKey: "test" },
      requestHandler: streaming,
      maxAttempts: 1,
    });
    const saved: unknown[] = [];
    recordResponses(client, saved);
    const model = bedrockModel({ modelId: "eu.anthropic.claude-sonnet-5-5", client, maxTokens: 300 });

    expect(await model.respond({ ...noTools, messages: [{ role: "customer", text: "Where is SU-1?" }] })).toEqual({
      text: "Order SU-1 is on its way.",
      toolCalls: [],
      stopReason: "end_turn",
    });
    expect(sentTo).toEqual(["bedrock-runtime.eu-west-1.amazonaws.com/model/eu.anthropic.claude-sonnet-5-5/converse"]);
    expect(saved).toEqual([body]);
    // What was saved replays as it came.
    expect(
      await recordedModel({ provider: "bedrock", model: "m", responses: saved }).respond({
        ...noTools,
        messages: [{ role: "customer", text: "Where is SU-1?" }],
      }),
    ).toEqual({
      text: "Order SU-1 is on its way.",
      toolCalls: [],
      stopReason: "end_turn",
    });
  });

  it("the conversation as Converse messages: roles alternate, tool results first in their user message, nothing blank", () => {
    const call = { id: "tooluse_1", name: "get_order", input: { orderId: "SU-1" } };
    expect(
      toConverseMessages([
        { role: "customer", text: "Where is SU-1?" },
        { role: "assistant", text: "", toolCalls: [call] },
        { role: "tool", toolCallId: "tooluse_1", content: '{"orderId":"SU-1"}', isError: false },
        { role: "note", text: "SU-1 was delivered yesterday." },
        { role: "assistant", text: "  ", toolCalls: [] },
        { role: "customer", text: "Thanks" },
      ]),
    ).toEqual([
      { role: "user", content: [{ text: "[message from the signed-in user] Where is SU-1?" }] },
      { role: "assistant", content: [{ toolUse: { toolUseId: "tooluse_1", name: "get_order", input: { orderId: "SU-1" } } }] },
      {
        role: "user",
        content: [
          { toolResult: { toolUseId: "tooluse_1", content: [{ text: '{"orderId":"SU-1"}' }] } },
          { text: `${notePrefix}SU-1 was delivered yesterday.` },
          { text: "[message from the signed-in user] Thanks" },
        ],
      },
    ]);
  });
});
