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
