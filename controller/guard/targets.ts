import { addDays } from "#core/days";
import type { OrderFacts } from "#controller/outcomes";
import type { FormRequest } from "#controller/guard/change-forms";
import { dayIn } from "#controller/text/days";

/**
 * Which orders a request's words can name (contract §8.5, "a target is the person's"): an order the principal named
 * in their own messages, or one the application's own text showed them in this conversation (a fact, a question, a
 * clarification's list). An order the model read on its own is no candidate: "cancel this one" does not name it.
 * A description ("the rug order from Monday") names an order only when it agrees with it: the day it was placed, in
 * the principal's time zone, and the items it holds.
 */

/** The orders of the conversation the principal's words may name: theirs, or shown to them. */
export function personsOrders(orders: readonly OrderFacts[], shown: readonly string[]): OrderFacts[] {
  const seen = new Set(shown);
  return orders.filter((o) => o.named === true || seen.has(o.orderId));
}

/** The order ids a text shows ("SU-10234"), in the order they appear. */
export function orderIdsIn(text: string): string[] {
  return [...new Set([...text.matchAll(/\bSU-\d{5}\b/g)].map((m) => m[0]))];
}

const weekdays = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"];

/**
 * Whether an order agrees with a description: placed on the day it says (in `timeZone`), and holding an item whose
 * title has every word it gives. An order whose day or items the conversation does not know does not agree: a
 * description the controller cannot check names nothing.
 */
export function agreesWith(
  order: OrderFacts,
  description: NonNullable<FormRequest["description"]>,
  today: string,
  timeZone: string,
): boolean {
  if (order.placedAt === undefined) return false;
  const placed = dayIn(order.placedAt, timeZone);
  if (!onDay(placed, description.day, today)) return false;
  if (description.words.length === 0) return true;
  const titles = order.items?.map((i) => i.title) ?? order.itemTitles ?? [];
  return titles.some((title) => {
    const words = titleWords(title);
    return description.words.every((w) => words.some((t) => sameWord(w, t)));
  });
}

/** Whether a day (YYYY-MM-DD) is the one a description gives, relative to today. */
function onDay(day: string, said: string, today: string): boolean {
  if (said === "today") return day === today;
  if (said === "yesterday") return day === addDays(today, -1);
  const todayIndex = new Date(`${today}T00:00:00Z`).getUTCDay();
  // Weeks run Monday to Sunday.
  const monday = addDays(today, -((todayIndex + 6) % 7));
  if (said === "this week") return day >= monday && day <= today;
  if (said === "last week") return day >= addDays(monday, -7) && day < monday;
  const index = weekdays.indexOf(said);
  if (index < 0) return false;
  // "From Monday": the last Monday up to today.
  return day === addDays(today, -((todayIndex - index + 7) % 7));
}

/** The words of an item's title, lowercase, letters and digits. */
export const titleWords = (title: string): string[] => title.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

/**
 * Two words are the same word, singular or plural: "lamp"/"lamps", "glass"/"glasses", "box"/"boxes",
 * "battery"/"batteries". Whole words only: "glass" is not "glas", "bus" is not "bu".
 */
export function sameWord(a: string, b: string): boolean {
  if (a === b) return true;
  return pluralsOf(a).includes(b) || pluralsOf(b).includes(a);
}

function pluralsOf(word: string): string[] {
  if (/[^aeiou]y$/.test(word)) return [`${word.slice(0, -1)}ies`, `${word}s`];
  if (/(?:s|sh|ch|x|z)$/.test(word)) return [`${word}es`];
  if (/o$/.test(word)) return [`${word}s`, `${word}es`];
  return [`${word}s`];
}
