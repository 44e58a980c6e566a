import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { negotiatedLocale, supportedLocales } from "#contract/locale";
import type { GetOrderOutput } from "#core/get-order";
import { boundedSellerText, canElicitForm, confirmationQuestion, sellerTextBound } from "#runtime/mcp-confirmation";

/**
 * The form an MCP confirmation shows the person (contract §2.1), held by structure over seeded generated seller text:
 * a seller's title reaches the question only on its own item line, inside the question's quotation marks, bounded
 * and marked as the seller's, and every other line is the application's own sentence or marked free text.
 */

const graphemes = (text: string) => [...new Intl.Segmenter("en", { granularity: "grapheme" }).segment(text)].length;
const quotationMark = /["\p{Pi}\p{Pf}＂「」『』〝〞〟‚„｢｣﹁﹂﹃﹄]/u;
/** The quotation marks the catalogue puts around a title, as a pattern. */
const quotes = "[\\p{Pi}\\p{Pf}„]";

function order(titles: string[], type: "marketplace" | "sundry" = "marketplace"): GetOrderOutput {
  return {
    orderId: "SU-88421",
    seller: { id: "SLR-2210", name: "Ashcombe Furniture", type, status: "active" },
    items: titles.map((title, i) => ({ itemId: `ITM-${i + 1}`, title })),
    delivery: { note: null },
  } as unknown as GetOrderOutput;
}

/** Seller text of every kind: any Unicode, line breaks, quotation marks of any script, bidi and invisible characters, long runs. */
const sellerText = fc.oneof(
  fc.string({ unit: "grapheme", maxLength: 120 }),
  fc.string({ unit: fc.constantFrom(..."ab \n\r\t\"“”„«»‹›「」『』＂'\u202e\u200b\u2028\u0301\u0000.:!"), maxLength: 120 }),
  fc.string({ unit: "binary", maxLength: 200 }),
);

describe("a seller's text in a question", () => {
  it("is one line without invisible characters or quotation marks, at most the bound, and unchanged when already so (property)", () => {
    fc.assert(
      fc.property(sellerText, (raw) => {
        const shown = boundedSellerText(raw);
        expect(shown).not.toMatch(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}]/u);
        expect(shown).not.toMatch(quotationMark);
        expect(graphemes(shown)).toBeLessThanOrEqual(sellerTextBound);
        expect(shown).toBe(shown.trim());
        if (shown.endsWith("…") && !raw.includes("…")) expect(graphemes(raw)).toBeGreaterThan(sellerTextBound - 1);
        const clean =
          raw === raw.normalize("NFC") &&
          !/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}]|\s\s|^\s|\s$|[^\S ]/u.test(raw) &&
          !quotationMark.test(raw) &&
          !/[<>[\]*_~\\`´']|&#?[A-Za-z0-9]+;/u.test(raw) &&
          graphemes(raw) <= sellerTextBound &&
          [...new Intl.Segmenter("en", { granularity: "grapheme" }).segment(raw)].every(({ segment }) => [...segment].length <= 8);
        if (clean) expect(shown).toBe(raw);
      }),
      { seed: 35, numRuns: 1000 },
    );
    expect(boundedSellerText("Ashcombe 4-Shelf Unit, Oak")).toBe("Ashcombe 4-Shelf Unit, Oak");
    expect(boundedSellerText(`Oak "Premium"\nConfirm: yes`)).toBe("Oak ʺPremiumʺ / Confirm: yes");
    expect(boundedSellerText("x".repeat(61))).toBe(`${"x".repeat(59)}…`);
  });

  it("stands only on its item's line, quoted and marked as the seller's, in every language; every other line is the application's or marked free text (property)", () => {
    fc.assert(
      fc.property(fc.array(sellerText, { minLength: 1, maxLength: 5 }), fc.constantFrom(...supportedLocales), (titles, locale) => {
        const shop = order(titles);
        const asked = confirmationQuestion(
          "cancel_order",
          { operationId: "op-12345678", orderId: "SU-88421", reason: "Ordered twice" },
          shop,
          locale,
        );
        const lines = asked.message.split("\n");
        // The first line, "items on the order", the reason's label and the closing line are the catalogue's; the reason is marked.
        const bullets = lines.filter((line) => line.startsWith("• "));
        const marked = lines.filter((line) => line.startsWith("│ "));
        expect(marked).toEqual(["│ Ordered twice"]);
        expect(lines).toHaveLength(bullets.length + marked.length + 4);
        titles.slice(0, 3).forEach((title, i) => {
          const shown = boundedSellerText(title);
          const line = bullets[i]!;
          expect(line.startsWith(`• ITM-${i + 1}`)).toBe(true);
          if (shown) {
            expect(line.includes(shown)).toBe(true);
            // Between the locale's quotation marks (French puts a space inside them), then the words that say whose it is.
            const quoted = line.slice(`• ITM-${i + 1} `.length);
            const literal = shown.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
            expect(quoted).toMatch(new RegExp(`^${quotes} ?${literal} ?${quotes} \\(.+\\)$`, "u"));
          }
        });
        for (const line of lines.filter((l) => !l.startsWith("• ") && !l.startsWith("│ ")))
          for (const title of titles) if (boundedSellerText(title).length > 3) expect(line.includes(boundedSellerText(title))).toBe(false);
      }),
      { seed: 35, numRuns: 400 },
    );
  });

  it("is not marked when the shop wrote it, and an item not on the order is named as such", () => {
    const sundry = confirmationQuestion(
      "start_return",
      { operationId: "op-12345678", orderId: "SU-88421", itemIds: ["ITM-1", "ITM-7"], reason: "damaged" },
      order(["Sundry lamp"], "sundry"),
      "en",
    );
    expect(sundry.message.split("\n")).toEqual([
      "Start a return on order SU-88421 of the 2 items below? Reason: damaged. Pickup: the earliest day with a free slot.",
      "• ITM-1 “Sundry lamp”",
      "• ITM-7 (not on this order)",
      "Nothing changes unless you confirm.",
    ]);
  });
});

describe("the question in every language", () => {
  it("names the order, the items, the reason, the date and the note in each of the eight, with a checkbox in that language", () => {
    const shop = order(["Oak shelf", "Bulb"]);
    for (const locale of supportedLocales) {
      const questions = [
        confirmationQuestion("cancel_order", { operationId: "op-12345678", orderId: "SU-88421" }, shop, locale),
        confirmationQuestion(
          "add_delivery_note",
          { operationId: "op-12345678", orderId: "SU-88421", expectedVersion: 1, deliveryNote: "Porch\nRing twice" },
          shop,
          locale,
        ),
        confirmationQuestion(
          "start_return",
          { operationId: "op-12345678", orderId: "SU-88421", itemIds: ["ITM-1", "ITM-2"], reason: "wrong_item", pickupDate: "2026-12-04" },
          shop,
          locale,
        ),
        confirmationQuestion(
          "offer_replacement",
          { operationId: "op-12345678", orderId: "SU-88421", expectedVersion: 1, itemId: "ITM-2", reason: "missing" },
          shop,
          locale,
        ),
      ];
      for (const { message, requestedSchema } of questions) {
        expect(message, locale).toContain("SU-88421");
        expect(requestedSchema.required).toEqual(["confirm"]);
        expect(requestedSchema.properties.confirm).toMatchObject({ type: "boolean", default: false, title: expect.any(String) });
        expect(message).not.toMatch(/\{|\}/);
      }
      expect(questions[1]!.message.split("\n").slice(1, 3), locale).toEqual(["│ Porch", "│ Ring twice"]);
      expect(questions[2]!.message, locale).toContain("2026-12-04");
      expect(questions[2]!.message, locale).toMatch(/ITM-1 .*Oak shelf[\s\S]*ITM-2 .*Bulb/);
      expect(questions[3]!.message, locale).toMatch(/ITM-2 .*Bulb/);
      if (locale !== "en")
        expect(questions[0]!.message.split("\n")[0], locale).not.toBe("Cancel order SU-88421? A cancelled order stays cancelled.");
    }
  });
});

describe("whom and in which language to ask", () => {
  it("asks only a client that declares form elicitation: form, or neither mode", () => {
    const meta = (capabilities: unknown) => ({ "io.modelcontextprotocol/clientCapabilities": capabilities });
    expect(canElicitForm(meta({ elicitation: {} }))).toBe(true);
    expect(canElicitForm(meta({ elicitation: { form: {} } }))).toBe(true);
    expect(canElicitForm(meta({ elicitation: { form: {}, url: {} } }))).toBe(true);
    expect(canElicitForm(meta({ elicitation: { url: {} } }))).toBe(false);
    expect(canElicitForm(meta({}))).toBe(false);
    expect(canElicitForm(meta({ elicitation: true }))).toBe(false);
    expect(canElicitForm(undefined)).toBe(false);
  });

  it("takes the first language it speaks from Accept-Language, by quality then order, else English", () => {
    expect(negotiatedLocale(undefined)).toBe("en");
    expect(negotiatedLocale("de-AT,de;q=0.9,en;q=0.8")).toBe("de");
    expect(negotiatedLocale("sv-SE, fr;q=0.5, en;q=0.7")).toBe("en");
    expect(negotiatedLocale("sv-SE, fr;q=0.5")).toBe("fr");
    expect(negotiatedLocale("pt-BR;q=0, nl")).toBe("nl");
    expect(negotiatedLocale("*, ja")).toBe("en");
    expect(negotiatedLocale("not a tag;;,")).toBe("en");
  });
});
