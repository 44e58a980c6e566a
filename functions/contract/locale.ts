/**
 * The languages order-tools writes to a person in (contract §8.1): the controller's texts and the questions the MCP
 * endpoint asks through a client's form (contract §2.1). English is the default and the fallback. Kept in the
 * contract's folder, which both the service and the controller may import, so both speak the same set.
 */
export const supportedLocales = ["en", "de", "fr", "es", "it", "pt", "nl", "pl"] as const;
export type Locale = (typeof supportedLocales)[number];
export const defaultLocale: Locale = "en";

const supported: ReadonlySet<string> = new Set(supportedLocales);

const isLocale = (language: string): language is Locale => supported.has(language);

/** The language of a BCP 47 tag ("de-AT" → "de"), or undefined when the tag is malformed. */
function languageOf(tag: string): string | undefined {
  try {
    return new Intl.Locale(tag).language;
  } catch {
    return undefined;
  }
}

/**
 * The supported locale a BCP 47 tag asks for: "de-AT" → "de", "pt-BR" → "pt". A tag there is no catalogue for is
 * refused with the list that would be right, rather than quietly answered in English.
 */
export function localeOf(tag: string | undefined): Locale {
  if (tag === undefined) return defaultLocale;
  const language = languageOf(tag);
  if (language === undefined)
    throw new RangeError(
      `"${tag}" is not a BCP 47 language tag; use one of ${supportedLocales.join(", ")} (a region is allowed, e.g. de-AT).`,
    );
  if (!isLocale(language))
    throw new RangeError(`No messages for locale "${tag}": use one of ${supportedLocales.join(", ")} (a region is allowed, e.g. de-AT).`);
  return language;
}

/**
 * The first supported language of an HTTP Accept-Language header (RFC 9110 §12.5.4), by quality, then by order;
 * English when it names none. A preference list, unlike an explicit locale, is negotiated rather than refused:
 * that is what the header means.
 */
export function negotiatedLocale(acceptLanguage: string | undefined): Locale {
  if (acceptLanguage === undefined) return defaultLocale;
  const ranges = acceptLanguage
    .split(",")
    .map((part, index) => {
      const [range = "", ...params] = part.trim().split(";");
      const q = params.map((p) => /^\s*q\s*=\s*([01](?:\.\d{0,3})?)\s*$/i.exec(p)?.[1]).find((v) => v !== undefined);
      return { range: range.trim(), quality: q === undefined ? 1 : Number(q), index };
    })
    .filter(({ range, quality }) => range !== "" && range !== "*" && quality > 0)
    .sort((a, b) => b.quality - a.quality || a.index - b.index);
  for (const { range } of ranges) {
    const language = languageOf(range);
    if (language !== undefined && isLocale(language)) return language;
  }
  return defaultLocale;
}
