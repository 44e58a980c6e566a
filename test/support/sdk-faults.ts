import { DeleteCommand, ScanCommand } from "@aws-sdk/lib-dynamodb";
import type { World } from "#test/support/world";

/** Loses the response of the next TransactWriteItems after DynamoDB has committed it: a lost response. */
export function loseNextTransactionResponse(world: Pick<World, "client">) {
  let armed = true;
  world.client.middlewareStack.add(
    (next, context) => async (args) => {
      const result = await next(args);
      if (armed && context.commandName === "TransactWriteItemsCommand") {
        armed = false;
        throw Object.assign(new Error("socket hang up after commit"), { name: "TimeoutError" });
      }
      return result;
    },
    { step: "initialize", name: `loseResponse-${Math.random()}` },
  );
}

/** Forgets every Powertools record, as if they had expired or been lost: only the operation records remain. */
export async function forgetIdempotencyRecords(world: Pick<World, "deps" | "names">) {
  const { Items = [] } = await world.deps.doc.send(new ScanCommand({ TableName: world.names.idempotency }));
  for (const item of Items) await world.deps.doc.send(new DeleteCommand({ TableName: world.names.idempotency, Key: { id: item.id } }));
}

/**
 * Holds every TransactWriteItems that writes the operation record of `operationId` until `release` settles:
 * the other request of an interleaving commits first, deterministically. Resolves `reached` when the first
 * held transaction arrives, i.e. once the held request has read and planned.
 */
export function holdTransactionsOf(world: Pick<World, "client">, operationId: string, release: Promise<unknown>) {
  let arrived!: () => void;
  const reached = new Promise<void>((resolve) => {
    arrived = resolve;
  });
  world.client.middlewareStack.add(
    (next, context) => async (args) => {
      const items = (args.input as { TransactItems?: { Put?: { Item?: Record<string, unknown> } }[] }).TransactItems;
      // Marshalled (`{ S: "…" }`) or not, depending on where the document client's own middleware sits.
      const idOf = (value: unknown) => (typeof value === "object" && value !== null ? (value as { S?: string }).S : value);
      const ours =
        context.commandName === "TransactWriteItemsCommand" && items?.some((i) => idOf(i.Put?.Item?.operationId) === operationId);
      if (ours) {
        arrived();
        await release.catch(() => undefined);
      }
      return next(args);
    },
    { step: "initialize", name: `hold-${operationId}` },
  );
  return { reached };
}
