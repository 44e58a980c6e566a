import { describe, expect, it } from "vitest";
import { moneyIn, turnFacts } from "#controller/gate/facts";
import { supportedLocales, type Locale } from "#controller/i18n/locale";
import { currencies, currencyMinorDigits } from "#core/currency";

/**
 * Money in the currency's minor units (contract §5): every amount is a whole number of pence, cents, yen or fils,
 * and is written with that currency's own ISO 4217 digits in the principal's language — ¥150,050 is 150050 yen,
 * never "¥1,501"; 12345 fils is BHD 12.345.
 */

/** What each locale writes for 150050 JPY, 2400 GBP, 179995 EUR and 12345 BHD (spaces as plain spaces). */
const written: Record<Locale, [string, string, string, string]> = {
  en: ["¥150,050", "£24.00", "€1,799.95", "BHD 12.345"],
  de: ["150.050 ¥", "24,00 £", "1.799,95 €", "12,345 BHD"],
  fr: ["150 050 JPY", "24,00 £GB", "1 799,95 €", "12,345 BHD"],
  es: ["150.050 JPY", "24,00 GBP", "1799,95 €", "12,345 BHD"],
  it: ["150.050 JPY", "24,00 £", "1799,95 €", "12,345 BHD"],
  pt: ["JP¥ 150.050", "£ 24,00", "€ 1.799,95", "BHD 12,345"],
  nl: ["JP¥ 150.050", "£ 24,00", "€ 1.799,95", "BHD 12,345"],
  pl: ["150 050 JPY", "24,00 GBP", "1799,95 €", "12,345 BHD"],
};
const plain = (s: string) => s.replace(/[\u00a0\u202f]/g, " ");

describe("an amount is written with its currency's own digits, in every locale", () => {
  for (const locale of supportedLocales) {
    it(`${locale}: JPY with none, GBP and EUR with two, BHD with three`, () => {
      const shown = [
        moneyIn(locale, "JPY", 150050),
        moneyIn(locale, "GBP", 2400),
        moneyIn(locale, "EUR", 179995),
        moneyIn(locale, "BHD", 12345),
      ];
      expect(shown.map(plain)).toEqual(written[locale]);
    });

    it(`${locale}: the amounts fact of a JPY order tells the yen the record holds`, () => {
      const [fact] = turnFacts({
        outcomes: [],
        orders: [
          { orderId: "SU-70001", read: true, readTurn: 1, totalCents: 150050, currency: "JPY", charges: [{ kind: "item", cents: 150050 }] },
        ],
        turn: 1,
        today: "2026-12-01",
        locale,
      });
      expect(fact?.kind).toBe("amounts");
      expect(plain(fact?.text ?? "")).toContain((written[locale] as string[])[0]);
      expect(fact).toMatchObject({ totalCents: 150050, currency: "JPY" });
    });
  }

  it("every listed currency's digits are the ones the runtime's ISO 4217 data gives it", () => {
    for (const code of currencies)
      expect(new Intl.NumberFormat("en", { style: "currency", currency: code }).resolvedOptions().maximumFractionDigits, code).toBe(
        currencyMinorDigits[code],
      );
  });
});
