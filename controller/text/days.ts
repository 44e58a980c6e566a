/**
 * Days in the principal's time zone (contract §8.5, "the person's day"): "tomorrow", "Monday" and the day an order was
 * placed are read in the conversation's `timeZone` (an IANA name; default UTC), not in the server's or in UTC.
 */

const formats = new Map<string, Intl.DateTimeFormat>();

function formatFor(timeZone: string): Intl.DateTimeFormat {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" });
    formats.set(timeZone, format);
  }
  return format;
}

/** The calendar day (YYYY-MM-DD) a moment falls on in a time zone. A plain day ("2026-12-07") is that day. */
export function dayIn(moment: string | Date, timeZone = "UTC"): string {
  if (typeof moment === "string" && /^\d{4}-\d{2}-\d{2}$/.test(moment)) return moment;
  const date = typeof moment === "string" ? new Date(moment) : moment;
  if (Number.isNaN(date.getTime())) return String(moment).slice(0, 10);
  const parts = Object.fromEntries(
    formatFor(timeZone)
      .formatToParts(date)
      .map((p) => [p.type, p.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day}`;
}

/** Whether a time zone is an IANA name this runtime knows ("Europe/Lisbon", "America/Anchorage", "UTC"). */
export function isTimeZone(value: unknown): value is string {
  if (typeof value !== "string" || value === "") return false;
  try {
    formatFor(value);
    return true;
  } catch {
    return false;
  }
}

/** A conversation's time zone, checked: an IANA name this runtime knows, or a TypeError that says what it takes. */
export function timeZoneOf(value: unknown): string {
  if (isTimeZone(value)) return value;
  throw new TypeError(
    `timeZone must be an IANA time zone name such as "Europe/Lisbon", "America/Anchorage" or "UTC", not ${JSON.stringify(value)}.`,
  );
}
