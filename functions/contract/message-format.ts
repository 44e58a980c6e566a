import { IntlMessageFormat } from "intl-messageformat";
import type { Locale } from "#contract/locale";

/**
 * A message catalogue: for every locale, every key's ICU MessageFormat pattern. Typed as a record over the keys,
 * so a key missing in one language is a compile error, not an English sentence in a German form.
 */
export type Catalogue<Key extends string> = Readonly<Record<Locale, Readonly<Record<Key, string>>>>;

export type MessageValues = Record<string, string | number>;

/** Parsed patterns, per catalogue, locale and key: parsing is the costly part, and a request uses a few. */
const parsed = new WeakMap<object, Map<string, IntlMessageFormat>>();

/**
 * Renders one message of a catalogue in a locale with ICU MessageFormat (plurals, selects, dates), never by
 * concatenating sentence parts. A value a pattern names but the caller did not give throws: a half-rendered
 * sentence is never shown.
 */
export function formatMessage<Key extends string>(catalogue: Catalogue<Key>, locale: Locale, key: Key, values: MessageValues = {}): string {
  let cache = parsed.get(catalogue);
  if (cache === undefined) {
    cache = new Map();
    parsed.set(catalogue, cache);
  }
  const id = `${locale}\u0000${key}`;
  let message = cache.get(id);
  if (message === undefined) {
    message = new IntlMessageFormat(catalogue[locale][key], locale, undefined, { ignoreTag: true });
    cache.set(id, message);
  }
  const rendered = message.format(values);
  if (typeof rendered !== "string") throw new TypeError(`Message ${key} (${locale}) did not render to text.`);
  return rendered;
}
