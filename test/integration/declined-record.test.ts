import { beforeAll, describe, expect, it } from "vitest";
import { declinedHeader } from "#core/declined";
import { apiGatewayEvent, lambdaContext } from "#local/lambda-context";
import { createHandler } from "#tools/cancel-order";
import { customer, newOperationId, newWorld, type World } from "#test/support/world";

/**
 * A changing tool's function records the person's no to an MCP confirmation when the MCP function says so with
 * `x-order-tools-declined` (contract §2.1): the no stands under the operationId, and the order is not touched.
 */
const ana = customer("C-1001");

describe("a change the person did not confirm, recorded by the tool's own function", () => {
  let world: World;
  let cancel: ReturnType<typeof createHandler>;
  beforeAll(async () => {
    world = await newWorld();
    cancel = createHandler(world.deps);
  });

  const send = async (args: Record<string, unknown>, headers: Record<string, string> = {}) => {
    const event = apiGatewayEvent({
      method: "POST",
      path: "/v1/tools/cancel_order",
      body: JSON.stringify(args),
      claims: ana.claims,
      scopes: ana.scopes,
    });
    event.headers = { ...event.headers, ...headers };
    const result = await cancel(event, lambdaContext("test"));
    return {
      status: result.statusCode,
      headers: (result.headers ?? {}) as Record<string, string>,
      body: JSON.parse(result.body ?? "null"),
    };
  };

  it("records the no and changes nothing; the same operationId then answers the no, and never runs", async () => {
    const operationId = newOperationId();
    const args = { operationId, orderId: "SU-10001" };
    const no = await send(args, { [declinedHeader]: "unticked" });
    expect(no.status).toBe(409);
    expect(no.body).toMatchObject({
      operationId,
      status: "declined",
      orderId: "SU-10001",
      error: { code: "CONFIRMATION_DECLINED", answer: "unticked" },
    });
    expect(await world.operation(ana, operationId)).toMatchObject({
      status: "declined",
      tool: "cancel_order",
      httpStatus: 409,
      body: no.body,
    });

    const yes = await send(args);
    expect(yes.status).toBe(409);
    expect(yes.headers["idempotent-replayed"]).toBe("true");
    expect(yes.body).toEqual(no.body);
    expect(await world.order("SU-10001")).toMatchObject({ status: "placed", version: 1 });
  });

  it("an answer it does not know is INVALID_INPUT naming the ones it takes, and records nothing", async () => {
    const operationId = newOperationId();
    const reply = await send({ operationId, orderId: "SU-10001" }, { [declinedHeader]: "maybe" });
    expect(reply.status).toBe(400);
    expect(reply.body.error).toMatchObject({ code: "INVALID_INPUT" });
    expect(JSON.stringify(reply.body.error)).toContain("must be one of decline, cancel, unticked");
    expect(await world.operation(ana, operationId)).toBeUndefined();
    expect(await world.order("SU-10001")).toMatchObject({ status: "placed", version: 1 });
  });
});
