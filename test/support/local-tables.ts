import { inject } from "vitest";
import { localDeps, useTables } from "#local/stack";
import { writeFixture } from "#store/fixture";
import type { Fixture } from "#store/fixture";
import { freshTables } from "#test/support/tables";

/**
 * Fresh tables on the run's DynamoDB Local, loaded with `fixture` and made the tables the handlers (and so a
 * gateway started in this process) use, as `npm start` does with its own.
 */
export async function seededLocalTables(fixture: Fixture): Promise<ReturnType<typeof localDeps>> {
  const { names } = await freshTables();
  const endpoint = inject("dynamodbEndpoint");
  const deps = localDeps(endpoint, names);
  await writeFixture(deps, fixture);
  useTables(endpoint, names);
  return deps;
}
