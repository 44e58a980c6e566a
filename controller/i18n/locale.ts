/**
 * The principal's language (contract §8.1): the application passes a locale per conversation, and every text the
 * controller writes itself — status sentences, confirmation and clarification questions, "I had to stop" — is
 * rendered in it from the message catalogues beside this file. The set of locales is the contract's, which the
 * MCP endpoint's questions speak too.
 */
export { defaultLocale, type Locale, localeOf, supportedLocales } from "#contract/locale";
