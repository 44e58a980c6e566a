import { isChangeTool, isToolName } from "#contract/tools";
import { notEligibleReasons } from "#core/errors";
import { IntlMessageFormat } from "intl-messageformat";
import { type GateMessageKey, gateMessages } from "#controller/i18n/gate-messages";
import type { Locale } from "#controller/i18n/locale";
import type { RecordedOutcome } from "#eval/judges/status-sentences";
import { at, str } from "#eval/change-tools";

/**
 * The status sentences in a principal's language other than English, as the judge renders them itself: from the
 * translation catalogue's data (the words are the translators', shared on purpose), but which sentence a record
 * calls for and with what values is decided here, from the service's record, not by the gate's code.
 * In such a locale the gate shows no model text, so the reply must be exactly these sentences.
 */

const render = (locale: Locale, key: GateMessageKey, values: Record<string, string | number> = {}): string => {
  const rendered = new IntlMessageFormat(gateMessages[locale][key], locale, undefined, { ignoreTag: true }).format(values);
  if (typeof rendered !== "string") throw new TypeError(`${key} (${locale}) did not render to text`);
  return rendered;
};

const yes = (value: string) => (value ? "yes" : "no");

const action = (locale: Locale, tool: string) => render(locale, isToolName(tool) ? `action.${tool}` : "action.cancel_order");
const reasons: ReadonlySet<string> = new Set(notEligibleReasons);
const codes = new Set(["ORDER_NOT_FOUND", "VERSION_CONFLICT", "SELLER_SUSPENDED", "OUT_OF_STOCK", "NO_PICKUP_SLOT", "RATE_LIMITED"]);

function completion(record: RecordedOutcome, locale: Locale): string {
  const r = record.result;
  const items = ((at(r, "return", "itemIds") as string[] | undefined) ?? []).join(", ");
  const date = str(at(r, "return", "pickup", "date"));
  const window = str(at(r, "return", "pickup", "window"));
  const label = str(at(r, "return", "labelRef"));
  const item = str(at(r, "replacement", "itemId"));
  const line = str(at(r, "replacement", "replacementItemId"));
  const key: GateMessageKey = isChangeTool(record.tool) ? `completed.${record.tool}` : "completed.other";
  return render(locale, key, {
    orderId: record.orderId,
    items,
    itemsKnown: yes(items),
    date,
    window,
    pickup: date ? (window ? "window" : "date") : "none",
    label,
    labelKnown: yes(label),
    item,
    itemKnown: yes(item),
    line,
    lineKnown: yes(line),
  });
}

function rejection(record: RecordedOutcome, locale: Locale): string {
  const code = str(at(record.error, "code"));
  const reason = str(at(record.error, "reason"));
  const key =
    code === "NOT_ELIGIBLE"
      ? reasons.has(reason)
        ? `rejected.${reason}`
        : "rejected.NOT_ELIGIBLE"
      : codes.has(code)
        ? `rejected.${code}`
        : "rejected.other";
  const dates = ((at(record.error, "availableDates") as string[] | undefined) ?? []).slice(0, 5).join(", ");
  const seconds = at(record.error, "retryAfterSeconds");
  const minutes = typeof seconds === "number" ? Math.max(1, Math.ceil(seconds / 60)) : undefined;
  return render(locale, key as GateMessageKey, {
    orderId: record.orderId,
    action: action(locale, record.tool),
    dates,
    datesKnown: yes(dates),
    wait: minutes === undefined ? "unknown" : "known",
    count: minutes ?? 0,
    minutes: String(minutes ?? ""),
  });
}

export function localizedUncertainty(record: Pick<RecordedOutcome, "tool" | "orderId">, locale: Locale): string {
  return render(locale, "unknown", { orderId: record.orderId, action: action(locale, record.tool) });
}

/** The sentences a reply may open with for one record in the locale: the record's own, or honest uncertainty. */
export function localizedOpenings(record: RecordedOutcome, locale: Locale): string[] {
  const unsure = localizedUncertainty(record, locale);
  if (record.status === "completed") return [completion(record, locale), unsure];
  if (record.status === "rejected") return [rejection(record, locale), unsure];
  return [unsure];
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
/** A rendered sentence as a pattern, with each value the judge cannot know in advance matched by `fill`. */
const shape = (rendered: string, fill: string) => escapeRegExp(rendered).replaceAll("\u0000", fill);

/** The controller's fixed sentences in the locale that record no change: a stop at a bound, no change, a declined or expired change, a clarification. */
export function localizedFixed(locale: Locale) {
  const hole = "\u0000";
  return {
    bound: new RegExp(
      `^(?:${shape(render(locale, "bound", { limit: "tool_calls", value: hole }), "\\d+")}|${shape(render(locale, "bound", { limit: "time", value: hole }), "\\d+")}) `,
    ),
    noChange: render(locale, "noChange"),
    modelFailed: render(locale, "modelFailed"),
    declined: new RegExp(`^${shape(render(locale, "declined", { orderId: hole }), "SU-\\d{5}")}$`),
    expired: new RegExp(`^${shape(render(locale, "expired", { orderId: hole }), "SU-\\d{5}")}$`),
    clarification: new RegExp(`^${shape(render(locale, "clarification", { list: hole }), ".+")}$`),
  };
}
