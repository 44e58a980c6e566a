/**
 * The principal's language (contract §8.1): the application passes a locale per conversation, and every text the
 * controller writes itself — status sentences, confirmation and clarification questions, "I had to stop" — is
 * rendered in it from the message catalogues beside this file. English is the default and the fallback.
 */
export const supportedLocales = ["en", "de", "fr", "es", "it", "pt", "nl", "pl"] as const;
export type Locale = (typeof supportedLocales)[number];
export const defaultLocale: Locale = "en";

const supported: ReadonlySet<string> = new Set(supportedLocales);

/**
 * The supported locale a BCP 47 tag asks for: "de-AT" → "de", "pt-BR" → "pt". A tag this controller has no
 * catalogue for is refused with the list that would be right, rather than quietly answered in English.
 */
export function localeOf(tag: string | undefined): Locale {
  if (tag === undefined) return defaultLocale;
  let language: string;
  try {
    language = new Intl.Locale(tag).language;
  } catch {
    throw new RangeError(
      `"${tag}" is not a BCP 47 language tag; use one of ${supportedLocales.join(", ")} (a region is allowed, e.g. de-AT).`,
    );
  }
  if (!supported.has(language)) {
    throw new RangeError(`No messages for locale "${tag}": use one of ${supportedLocales.join(", ")} (a region is allowed, e.g. de-AT).`);
  }
  return language as Locale;
}
