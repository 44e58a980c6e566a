import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkFreeText, deliveryNoteRules } from "#core/text";

describe("the carrier's note rules", () => {
  it("keeps letters, digits, punctuation, symbols, spaces and line breaks of any script exactly", () => {
    const samples = ["Use the east entrance.", "Звоните в домофон 12", "請放在門口", "مرحبا، اترك الطرد عند الباب", "नमस्ते दरवाज़े पर छोड़ें", "🚪📦 <b>&amp;</b> {\"a\":1}", "Line one\nLine two"];
    for (const sample of samples) expect(checkFreeText(sample, deliveryNoteRules)).toEqual({ ok: true, text: sample.normalize("NFC") });
  });

  it("turns CRLF into LF, applies NFC and trims the edges", () => {
    expect(checkFreeText("  cafe\u0301\r\nback door \n", deliveryNoteRules)).toEqual({ ok: true, text: "caf\u00e9\nback door" });
  });

  it("counts characters, not UTF-16 units: 500 emoji fit, 501 do not", () => {
    expect(checkFreeText("📦".repeat(500), deliveryNoteRules).ok).toBe(true);
    expect(checkFreeText("📦".repeat(501), deliveryNoteRules)).toEqual({ ok: false, message: expect.stringMatching(/501 characters long after trimming; the limit is 500/) });
  });

  it("allows 10 lines and refuses 11", () => {
    expect(checkFreeText(Array(10).fill("x").join("\n"), deliveryNoteRules).ok).toBe(true);
    expect(checkFreeText(Array(11).fill("x").join("\n"), deliveryNoteRules)).toMatchObject({ ok: false, message: expect.stringMatching(/11 lines/) });
  });

  it("refuses every bidi control and zero-width character, naming its position", () => {
    const refused = [0x200b, 0x200c, 0x200d, 0x200e, 0x200f, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2060, 0x2066, 0x2067, 0x2068, 0x2069, 0xfeff, 0x00, 0x07, 0x09, 0x1b, 0x7f, 0x85, 0x2028];
    for (const cp of refused) {
      const result = checkFreeText(`ab${String.fromCodePoint(cp)}cd`, deliveryNoteRules);
      expect(result, `U+${cp.toString(16)}`).toMatchObject({ ok: false, message: expect.stringMatching(/at character 3; remove it/) });
    }
  });

  it("a lone carriage return is refused; one before a line feed is a line break", () => {
    expect(checkFreeText("a\rb", deliveryNoteRules)).toMatchObject({ ok: false, message: expect.stringMatching(/carriage return .* at character 2/) });
    expect(checkFreeText("a\r\nb", deliveryNoteRules)).toEqual({ ok: true, text: "a\nb" });
  });

  it("any accepted note is already normalised: checking it again changes nothing (property)", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 80 }), (raw) => {
        const first = checkFreeText(raw, deliveryNoteRules);
        if (!first.ok) return;
        expect(checkFreeText(first.text, deliveryNoteRules)).toEqual(first);
        expect(first.text).toBe(first.text.normalize("NFC").trim());
        expect(first.text).not.toMatch(/[\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff\r\t]/u);
      }),
      { numRuns: 500 },
    );
  });
});
