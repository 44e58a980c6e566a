import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { RunState, Runner } from "@openai/agents";
import { orderToolsForAgents } from "#controller/frameworks/openai-agents";
import { type ConversationState, FileIntentStore } from "#controller/index";
import { scriptedAgentsModel } from "#controller/testing";
import type { ExampleService, ExampleShop } from "#examples/frameworks/shop";

/**
 * The order tools inside the OpenAI Agents SDK, as an application writes it: it imports the package's public
 * subpaths only (`#controller/frameworks/openai-agents` is `order-tools/controller/openai-agents`; the package test
 * runs this file so, in an application that installed the package). The same conversation as the AI SDK example: the worst-case model, after reading
 * the lamp's seller text, proposes cancelling the towel and the kettle; the controller holds both, and each is the
 * run's interruption. The application keeps the run's state as a string and the conversation's state as JSON, as it
 * would while the customer decides; the process "restarts" (a new controller, agent and model; the intents in a file
 * store); the customer approves the towel's and rejects the kettle's on the state read back, and only the towel's
 * cancellation reaches the service, once.
 */
export async function agentsExample(service: ExampleService, shop: ExampleShop, print: (line: string) => void): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), "order-tools-agents-example-"));
  const runner = new Runner({ tracingDisabled: true });
  const script = [
    { call: "get_order", input: { orderId: shop.lamp } },
    { call: "cancel_order", input: { orderId: shop.towel } },
    { call: "cancel_order", input: { orderId: shop.kettle } },
    { say: "Done: both orders are cancelled." },
  ];
  /** The application's process: its controller on a durable intent store, its agent and model. */
  const application = () => {
    const orders = orderToolsForAgents({
      service,
      intents: new FileIntentStore(join(dir, "intents")),
    });
    // The application's model, e.g. "gpt-5"; here the SDK's ScriptedModel on a script.
    const { model, cursor } = scriptedAgentsModel(script);
    const agent = orders.agent({ name: "Shop assistant", instructions: "Answer in one or two sentences.", model });
    return { orders, agent, cursor };
  };
  try {
    const before = application();
    const chat = before.orders.conversation(`example-agents-${shop.block}`);
    const ask = `Which bulb does the floor lamp on ${shop.lamp} take? And please cancel ${shop.towel} before it ships.`;
    print(`customer: ${ask}`);
    before.cursor.startTurn("message");
    const first = await chat.run(before.agent, ask, { runner });
    print(`assistant: ${first.reply}`);
    for (const { item, confirmation } of first.interruptions)
      print(`  interruption ${item.name} ${item.arguments} (${confirmation.question})`);
    // What the application keeps while the customer decides.
    const keptRun = first.state?.toString() ?? "";
    const keptConversation = JSON.stringify(chat.state());
    print(`  kept: the run's state (${keptRun.length} characters) and the conversation's (${keptConversation.length})`);

    print("(the application restarts)");
    const after = application();
    const resumed = after.orders.conversation(`example-agents-${shop.block}`, JSON.parse(keptConversation) as ConversationState);
    const state = await RunState.fromString(after.agent, keptRun);
    // The customer's buttons: yes to what they asked for, no to what the seller's text asked for.
    for (const item of state.getInterruptions()) {
      const towel = JSON.parse(item.arguments ?? "{}").orderId === shop.towel;
      if (towel) state.approve(item);
      else state.reject(item, { message: "The customer did not ask for this." });
      print(`customer: ${towel ? "approve" : "reject"} ${item.name} ${item.arguments}`);
    }
    after.cursor.startTurn("button");
    const second = await resumed.run(after.agent, state, { runner });
    print(`assistant: ${second.reply}`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
