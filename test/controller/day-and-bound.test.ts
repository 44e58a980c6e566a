import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createController } from "#controller/controller";
import type { OrderFacts } from "#controller/outcomes";
import { scriptedModel } from "#controller/model/scripted";
import { dayIn } from "#controller/text/days";
import { provenanceOf } from "#test/controller/support/provenance-words";
import { lampController, lampWorld } from "#test/controller/support/lamp-world";
import { type ServiceWorld, startService } from "#test/controller/support/service-world";

/**
 * Contract §8.5, "the person's day" and "bounds": relative days are read in the conversation's time zone, and a
 * message over the bound is not read — the turn's problem says so, and nothing changes.
 */
describe("the person's day", () => {
  const kettle: OrderFacts = {
    orderId: "SU-72203",
    read: true,
    status: "delivered",
    sellerType: "sundry",
    items: [{ itemId: "ITM-1", title: "Electric kettle" }],
  };
  const message = "The electric kettle on SU-72203 arrived broken, please start a return for it, with pickup on Monday.";
  // 22:30 on Sunday 6 December in Anchorage is 07:30 on Monday 7 December in UTC.
  const now = new Date("2026-12-07T07:30:00Z");
  const request = (pickupDate: string) => ({ orderId: "SU-72203", itemIds: ["ITM-1"], reason: "damaged", pickupDate });

  it("late on a Sunday in Anchorage, 'pickup on Monday' is the next day, not a week later", () => {
    const today = dayIn(now, "America/Anchorage");
    expect(today).toBe("2026-12-06");
    const check = provenanceOf({ orders: [kettle], today, timeZone: "America/Anchorage" });
    expect(check({ tool: "start_return", request: request("2026-12-07"), message })).toMatchObject({ decision: "dispatch" });
    expect(check({ tool: "start_return", request: request("2026-12-14"), message })).toMatchObject({
      decision: "confirm",
      failed: ["values"],
    });
  });

  it("in UTC (the default), the same moment is Monday, and 'Monday' is a week on", () => {
    const check = provenanceOf({ orders: [kettle], today: dayIn(now) });
    expect(check({ tool: "start_return", request: request("2026-12-14"), message })).toMatchObject({ decision: "dispatch" });
  });

  it("a conversation keeps the time zone it was opened with, and refuses a name that is not one", () => {
    const controller = createController({ service: { baseUrl: "http://127.0.0.1:9", token: "t" }, model: scriptedModel([]) });
    expect(controller.conversation("tz", undefined, { timeZone: "America/Anchorage" }).state().timeZone).toBe("America/Anchorage");
    expect(() => controller.conversation("tz-bad", undefined, { timeZone: "Mars/Olympus" })).toThrow(
      /timeZone must be an IANA time zone name such as "Europe\/Lisbon".*not "Mars\/Olympus"/,
    );
  });
});

describe("a message over the bound is not read", () => {
  let service: ServiceWorld;
  beforeAll(async () => {
    service = await startService();
  });
  afterAll(async () => service?.close());

  it("its turn's problem is message_too_long, the reply asks for a shorter one, and nothing is sent", async () => {
    const { customerId, ids } = await lampWorld(service);
    const { controller, changes, fetch } = await lampController(service, customerId, [
      { call: "cancel_order", input: { orderId: ids.towel } },
      { say: "Done." },
    ]);
    const conversation = controller.conversation("too-long");
    const long = `Please cancel ${ids.towel}. ${"And one more thing. ".repeat(300)}`;
    const turn = await conversation.turn(long);
    expect(turn.problem).toMatchObject({ code: "message_too_long" });
    expect(turn.problem?.message).toMatch(new RegExp(`${long.length} characters long, over limits.maxMessageCharacters`));
    expect(turn.reply).toBe(
      `Your message is too long for me to read (${long.length} characters; I can read up to 4000). Nothing was changed: please send a shorter message.`,
    );
    expect(changes()).toEqual([]);
    expect(fetch.requests).toEqual([]);
    expect(await service.order(ids.towel)).toMatchObject({ status: "placed", version: 1 });
    // The next message within the bound is read as usual.
    await conversation.turn(`Please cancel ${ids.towel}.`);
    expect(changes().map((r) => r.body.orderId)).toEqual([ids.towel]);
  });

  it("the bound is an option, checked where the controller is made", () => {
    const made = (maxMessageCharacters: unknown) => () =>
      createController({
        service: { baseUrl: "http://127.0.0.1:9", token: "t" },
        model: scriptedModel([]),
        limits: { maxMessageCharacters } as never,
      });
    expect(made(0)).toThrow(/limits.maxMessageCharacters must be a whole number of characters ≥ 1 \(default 4000\), not 0/);
    expect(made(20_000)).not.toThrow();
  });
});
