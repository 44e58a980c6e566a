import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readRequestForm } from "#controller/guard/request-form";
import { lampController, lampWorld } from "#test/controller/support/lamp-world";
import { type ServiceWorld, startService } from "#test/controller/support/service-world";

/**
 * Contract §8.5, "what is sent is what was shown": every value the service receives on a yes is in the question the
 * principal answered, or it is not sent; and a reason goes only to its own request.
 */
let service: ServiceWorld;
beforeAll(async () => {
  service = await startService();
});
afterAll(async () => service?.close());

describe("a held cancellation's reason is not sent, since its question does not show it", () => {
  it("a yes sends the cancellation without the model's reason, once, with no loop", async () => {
    const { customerId, ids } = await lampWorld(service);
    const { controller, changes, store } = await lampController(service, customerId, [
      { call: "get_order", input: { orderId: ids.lamp } },
      { call: "cancel_order", input: { orderId: ids.towel, reason: "Requested by billing@example.net, see SU-99999" } },
      { say: "Shall I?" },
      { say: "Done." },
    ]);
    const conversation = controller.conversation("held-reason");
    const asked = await conversation.turn(`Please cancel ${ids.towel}, and tell me about ${ids.lamp}.`);
    expect(asked.confirmations).toEqual([expect.objectContaining({ tool: "cancel_order", orderId: ids.towel })]);
    expect(asked.reply).not.toContain("billing@example.net");
    const [held] = await store.forConversation("held-reason");
    expect(held?.request).not.toHaveProperty("reason");
    const yes = await conversation.turn("Yes");
    expect(changes()).toHaveLength(1);
    expect(changes()[0]?.body).toMatchObject({ orderId: ids.towel });
    expect(changes()[0]?.body).not.toHaveProperty("reason");
    expect(yes.replyKind).toBe("confirmation");
    expect(yes.confirmations).toEqual([]);
    expect(await service.order(ids.towel)).toMatchObject({ status: "cancelled" });
  });
});

describe("a reason goes only to its own request", () => {
  const today = "2026-12-07";

  it("a reason in one request's sentence is that request's, not the next one's", () => {
    const form = readRequestForm("Please return the kettle on SU-61203, it arrived broken. Please return the lamp on SU-61201.", today);
    expect(form).toMatchObject({ closed: true });
    const requests = form.closed ? form.requests : [];
    expect(requests.find((r) => r.orderIds.includes("SU-61203"))?.reason).toBe("damaged");
    expect(requests.find((r) => r.orderIds.includes("SU-61201"))?.reason).toBeUndefined();
  });

  it("a reason sentence beside two requests that does not say which is not the form", () => {
    const form = readRequestForm("Please return the kettle on SU-61203. Please return the lamp on SU-61201. It arrived broken.", today);
    expect(form).toMatchObject({ closed: false, why: expect.stringMatching(/more than one request/) });
  });
});

describe("a change that cannot be shown as it is asks once, and a yes does not loop", () => {
  it("a yes to a note whose words are not the principal's settles it unsent: one question, then no question again", async () => {
    const { customerId, ids } = await lampWorld(service);
    const { controller, changes, store } = await lampController(service, customerId, [
      { call: "get_order", input: { orderId: ids.lamp } },
      {
        call: "add_delivery_note",
        input: { orderId: ids.towel, expectedVersion: 1, deliveryNote: "Leave it with the neighbour at number 12." },
      },
      { say: "Shall I?" },
      { say: "Noted." },
      { say: "Noted." },
    ]);
    const conversation = controller.conversation("unconfirmable-note");
    const asked = await conversation.turn(`What's on ${ids.lamp}? And add a note to ${ids.towel}: leave it by the door.`);
    expect(asked.replyKind).toBe("confirmation_request");
    expect(asked.reply).toContain("Some of the proposed wording did not come from you");
    expect(asked.reply).not.toContain("neighbour");

    const yes = await conversation.turn("Yes");
    expect(yes.confirmations).toEqual([]);
    expect(yes.reply).toBe(`All right, order ${ids.towel} stays as it is.`);
    expect((await store.forConversation("unconfirmable-note")).map((i) => [i.tool, i.state])).toEqual([["add_delivery_note", "declined"]]);

    const again = await conversation.turn("Yes");
    expect(again.replyKind).not.toBe("confirmation_request");
    expect(again.confirmations).toEqual([]);
    expect(changes()).toEqual([]);
    expect(await service.order(ids.towel)).toMatchObject({ version: 1 });
  });
});
