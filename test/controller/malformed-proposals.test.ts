import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ScanCommand } from "@aws-sdk/lib-dynamodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createController } from "#controller/controller";
import { MemoryIntentStore } from "#controller/intents/memory";
import { scriptedModel } from "#controller/model/scripted";
import type { ChatMessage } from "#controller/model/types";
import { controllerOnlyTools } from "#contract/model-tools";
import { repoRoot } from "#local/stack";
import { type ServiceWorld, startService, watchedFetch } from "#test/controller/support/service-world";

/**
 * Every invalid sample event in events/, proposed by a model: the controller answers with the service's own
 * INVALID_INPUT body, byte for byte, and sends nothing.
 */
let service: ServiceWorld;
beforeAll(async () => {
  service = await startService();
});
afterAll(async () => service?.close());

interface SampleEvent {
  file: string;
  tool: string;
  body: string;
}

/** The events events/README.md lists as 400 INVALID_INPUT. */
const invalidFiles = new Set(
  [...readFileSync(join(repoRoot, "events", "README.md"), "utf8").matchAll(/^\| `([^`]+\.json)` \| 400 INVALID_INPUT \|/gm)].map(
    (m) => m[1] as string,
  ),
);

/** API Gateway's events: the HTTP surface the controller calls (events/ also holds other functions' events). */
const samples: SampleEvent[] = readdirSync(join(repoRoot, "events"))
  .filter((file) => invalidFiles.has(file))
  .flatMap((file) => {
    const event = JSON.parse(readFileSync(join(repoRoot, "events", file), "utf8"));
    const overHttp = event.version === "2.0" && event.requestContext?.http?.method === "POST" && typeof event.body === "string";
    return overHttp ? [{ file, tool: String(event.rawPath).split("/").at(-1) ?? "", body: event.body as string }] : [];
  });

async function serviceAnswer(sample: SampleEvent): Promise<{ status: number; text: string }> {
  const response = await fetch(`${service.gatewayUrl}/v1/tools/${sample.tool}`, {
    method: "POST",
    headers: { authorization: `Bearer ${await service.token("C-1001")}`, "content-type": "application/json" },
    body: sample.body,
  });
  return { status: response.status, text: await response.text() };
}

async function everything(): Promise<string> {
  const scan = async (TableName: string) => (await service.deps.doc.send(new ScanCommand({ TableName, ConsistentRead: true }))).Items ?? [];
  return JSON.stringify([await scan(service.deps.tables.orders), await scan(service.deps.tables.idempotency)]);
}

/** Proposes the event's arguments as a model would (no operationId: the application makes that) and returns the tool result. */
async function proposeAsModel(sample: SampleEvent) {
  const { operationId: _byTheApplication, ...input } = JSON.parse(sample.body) as Record<string, unknown>;
  const fetch = watchedFetch();
  const intents = new MemoryIntentStore();
  let toolResult: ChatMessage | undefined;
  const controller = createController({
    service: { baseUrl: service.gatewayUrl, token: await service.token("C-1001"), fetch },
    model: scriptedModel((request, index) => {
      if (index === 0) return { call: sample.tool, input };
      toolResult = request.messages.at(-1);
      return { say: "That did not work." };
    }),
    intents,
  });
  const turn = await controller.conversation(`malformed-${sample.file}`).turn(`About order ${String(input.orderId ?? "")}`);
  const validation = turn.trace.events.find((e) => e.type === "validation");
  return { turn, fetch, intents, validation, toolResult };
}

describe("malformed proposals are refused with the service's own body, and nothing is sent", () => {
  it("events/ has an invalid sample for every tool", () => {
    expect(new Set(samples.map((s) => s.tool))).toEqual(
      new Set([
        "search_orders",
        "get_order",
        "cancel_order",
        "add_delivery_note",
        "start_return",
        "offer_replacement",
        "get_operation_status",
      ]),
    );
  });

  for (const sample of samples) {
    it(`${sample.file}`, async () => {
      const service400 = await serviceAnswer(sample);
      expect(service400.status).toBe(400);
      const before = await everything();
      const { turn, fetch, intents, validation, toolResult } = await proposeAsModel(sample);

      expect(fetch.requests).toEqual([]);
      expect(await intents.forConversation(`malformed-${sample.file}`)).toEqual([]);
      expect(await everything()).toBe(before);
      if (controllerOnlyTools.includes(sample.tool as never)) {
        // Not offered to a model (its only argument is an operationId): an unknown tool to the model.
        expect(validation).toMatchObject({ decision: "unknown_tool" });
        expect(toolResult).toMatchObject({ role: "tool", isError: true, content: expect.stringContaining('"code":"UNKNOWN_TOOL"') });
        return;
      }
      expect(validation).toMatchObject({ decision: "invalid_input" });
      // What the model was given as the tool result, byte for byte the service's response body.
      expect(toolResult).toMatchObject({ role: "tool", isError: true });
      expect((toolResult as { content: string }).content).toBe(service400.text);
      expect(JSON.parse(service400.text).error.code).toBe("INVALID_INPUT");
      expect(turn.replyKind).toBe("information");
    });
  }
});
