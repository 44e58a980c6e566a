import { describe, expect, it } from "vitest";
import { type Catalogue, formatMessage } from "#controller/i18n/format";
import { localeOf, supportedLocales } from "#controller/i18n/locale";

const sample: Catalogue<"items"> = {
  en: { items: "{count, plural, one {# item} other {# items}} on order {orderId}" },
  de: { items: "{count, plural, one {# Artikel} other {# Artikel}} in Bestellung {orderId}" },
  fr: { items: "{count, plural, one {# article} other {# articles}} de la commande {orderId}" },
  es: { items: "{count, plural, one {# artículo} other {# artículos}} del pedido {orderId}" },
  it: { items: "{count, plural, one {# articolo} other {# articoli}} dell'ordine {orderId}" },
  pt: { items: "{count, plural, one {# item} other {# itens}} da encomenda {orderId}" },
  nl: { items: "{count, plural, one {# artikel} other {# artikelen}} van bestelling {orderId}" },
  pl: { items: "{count, plural, one {# pozycja} few {# pozycje} many {# pozycji} other {# pozycji}} w zamówieniu {orderId}" },
};

describe("the principal's locale", () => {
  it("a region tag selects its language's catalogue, and no tag is English", () => {
    expect(localeOf("de-AT")).toBe("de");
    expect(localeOf("pt-BR")).toBe("pt");
    expect(localeOf(undefined)).toBe("en");
  });

  it("a language without a catalogue is refused, naming the ones there are", () => {
    expect(() => localeOf("sv")).toThrow(/No messages for locale "sv": use one of en, de, fr, es, it, pt, nl, pl/);
    expect(() => localeOf("not a tag")).toThrow(/not a BCP 47 language tag/);
  });

  it("messages use each language's own plural rules", () => {
    expect(formatMessage(sample, "en", "items", { count: 1, orderId: "SU-10234" })).toBe("1 item on order SU-10234");
    expect(formatMessage(sample, "pl", "items", { count: 3, orderId: "SU-10234" })).toBe("3 pozycje w zamówieniu SU-10234");
    expect(formatMessage(sample, "pl", "items", { count: 5, orderId: "SU-10234" })).toBe("5 pozycji w zamówieniu SU-10234");
    expect(supportedLocales.map((locale) => formatMessage(sample, locale, "items", { count: 2, orderId: "SU-1" }))).toHaveLength(8);
  });

  it("a value the pattern names but the caller left out throws instead of rendering half a sentence", () => {
    expect(() => formatMessage(sample, "en", "items", { count: 1 })).toThrow();
  });
});
