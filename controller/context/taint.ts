import { type PrincipalKind, thirdPartyOrigins } from "#contract/model-context";

/**
 * Which texts of a read result the acting principal did not write (contract §8.5): every field a result marks
 * with another origin (a seller's description; for staff or a seller, the customer's delivery note), and every
 * string a marketplace seller controls — its name, and its items' titles on get_order; on search_orders, every
 * order's sellerName and itemTitles, since a summary does not say whose they are (so none is trusted). Spotlighting
 * marks exactly these, and reading any of them taints the conversation's context.
 */
export interface ForeignText {
  /** Where it sits in the result: "items[0].description", "orders[1].sellerName". */
  path: string;
  /** Who wrote it. */
  origin: "seller" | "customer";
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => value !== null && typeof value === "object" && !Array.isArray(value);
const nonEmpty = (value: unknown): value is string => typeof value === "string" && value.trim() !== "";

/**
 * Visits every foreign text of a tool result: `visit(holder, key, origin, path)` for each string field that
 * holds one, so a caller can both list them (taint) and rewrite them (spotlighting) by the one rule.
 */
export function visitForeignTexts(
  body: unknown,
  principal: PrincipalKind,
  visit: (holder: Json | unknown[], key: string | number, origin: ForeignText["origin"], path: string) => void,
): void {
  const foreign = thirdPartyOrigins(principal);
  const sellerForeign = foreign.has("seller");
  const walk = (value: unknown, path: string): void => {
    if (Array.isArray(value)) {
      for (const [i, v] of value.entries()) walk(v, `${path}[${i}]`);
      return;
    }
    if (!isObject(value)) return;
    if (typeof value.origin === "string" && foreign.has(value.origin) && nonEmpty(value.text)) {
      visit(value, "text", value.origin === "customer" ? "customer" : "seller", `${path}.text`.replace(/^\./, ""));
    }
    // A summary of search_orders: whose seller it is is not shown, so its seller name and titles are not trusted.
    if (sellerForeign && typeof value.orderId === "string" && ("sellerName" in value || "itemTitles" in value)) {
      if (nonEmpty(value.sellerName)) visit(value, "sellerName", "seller", `${path}.sellerName`.replace(/^\./, ""));
      if (Array.isArray(value.itemTitles))
        for (const [i, t] of value.itemTitles.entries())
          if (nonEmpty(t)) visit(value.itemTitles as unknown[], i, "seller", `${path}.itemTitles[${i}]`.replace(/^\./, ""));
    }
    // get_order of a marketplace seller's order: the seller named itself and titled its items.
    if (sellerForeign && isObject(value.seller) && value.seller.type !== "sundry" && Array.isArray(value.items)) {
      if (nonEmpty(value.seller.name)) visit(value.seller, "name", "seller", `${path}.seller.name`.replace(/^\./, ""));
      for (const [i, item] of value.items.entries())
        if (isObject(item) && nonEmpty(item.title)) visit(item, "title", "seller", `${path}.items[${i}].title`.replace(/^\./, ""));
    }
    for (const [key, v] of Object.entries(value)) if (v !== null && typeof v === "object") walk(v, path ? `${path}.${key}` : key);
  };
  walk(body, "");
}

/** The foreign texts of a tool result: empty when everything in it is the principal's own or Sundry's. */
export function foreignTexts(body: unknown, principal: PrincipalKind): ForeignText[] {
  const found: ForeignText[] = [];
  visitForeignTexts(body, principal, (_holder, _key, origin, path) => found.push({ path, origin }));
  return found;
}

/** The foreign texts themselves, as written (the datamark removed): what a principal may quote back. */
export function foreignStrings(body: unknown, principal: PrincipalKind, mark = ""): string[] {
  const found: string[] = [];
  visitForeignTexts(body, principal, (holder, key) => {
    const value = (holder as Record<string | number, unknown>)[key];
    if (typeof value === "string") found.push(mark === "" ? value : value.replaceAll(mark, " "));
  });
  return found;
}
