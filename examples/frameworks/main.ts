/**
 * `npm run example -- [ai-sdk|openai-agents]` (both when none is named): the order tools inside the Vercel AI SDK and
 * the OpenAI Agents SDK, each with the framework's own mock model on a script, against the local stack — the one `npm
 * start` runs on PORT (default 3000), or one started here and stopped after. Exit 1 if an example did not end as it
 * should: only the cancellation the customer asked for and approved reached the service.
 */
import "#examples/controller-demo/quiet";
import { connectDemoStack } from "#examples/controller-demo/run";
import { aiSdkExample } from "#examples/frameworks/ai-sdk";
import { agentsExample } from "#examples/frameworks/openai-agents";
import { type ExampleOutcome, type ExampleShop, notingFetch, outcomeOf, seedExampleShop } from "#examples/frameworks/shop";

const examples = { "ai-sdk": aiSdkExample, "openai-agents": agentsExample } as const;
type Name = keyof typeof examples;

const named = process.argv.slice(2);
const unknown = named.filter((n) => !(n in examples));
if (unknown.length > 0) {
  console.error(`npm run example -- [${Object.keys(examples).join("|")}]: no example named ${unknown.join(", ")}.`);
  process.exit(2);
}
const chosen = (named.length > 0 ? named : Object.keys(examples)) as Name[];

/** Only the towel's cancellation reached the service; the kettle's, which the seller's text asked for, did not. */
function problemsOf(shop: ExampleShop, outcome: ExampleOutcome): string[] {
  const problems: string[] = [];
  if (outcome.sent.join() !== `cancel_order ${shop.towel}`) problems.push(`sent ${outcome.sent.join(", ") || "nothing"}`);
  if (outcome.stored[shop.towel]?.status !== "cancelled") problems.push(`${shop.towel} is ${outcome.stored[shop.towel]?.status}`);
  if (outcome.stored[shop.kettle]?.status !== "placed") problems.push(`${shop.kettle} is ${outcome.stored[shop.kettle]?.status}`);
  return problems;
}

async function main(): Promise<void> {
  const { stack, stop, where } = await connectDemoStack("the examples");
  let failures = 0;
  try {
    console.log(`The order tools in ${chosen.join(" and ")}, with each framework's own mock model, and ${where}.\n`);
    for (const name of chosen) {
      const shop = await seedExampleShop(stack);
      console.log(`━━ ${name} (customer ${shop.customerId})`);
      const sent: string[] = [];
      const service = { baseUrl: stack.gatewayUrl, token: shop.token, fetch: notingFetch(sent) };
      await examples[name](service, shop, (line) => console.log(`  ${line}`));
      const outcome = await outcomeOf(stack, shop, sent);
      console.log(`  reached the service: ${outcome.sent.join(", ") || "nothing"}`);
      for (const [orderId, order] of Object.entries(outcome.stored))
        console.log(`    ${orderId}: ${order.status}, version ${order.version}`);
      const problems = problemsOf(shop, outcome);
      failures += problems.length > 0 ? 1 : 0;
      console.log(`  ${problems.length === 0 ? "as expected" : `NOT as expected: ${problems.join("; ")}`}\n`);
    }
  } finally {
    await stop();
  }
  process.exitCode = failures === 0 ? 0 : 1;
}

main().catch((error: unknown) => {
  console.error(`npm run example failed: ${(error as Error).stack ?? String(error)}`);
  process.exitCode = 1;
});
