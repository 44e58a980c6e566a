import MarkdownIt from "markdown-it";

/**
 * The one text (contract §8.2): what the customer sees of a model's reply is plain text, and it is made here from
 * the reply's markdown by a real parser (markdown-it, CommonMark with GFM tables and strikethrough), before
 * anything reads it. The gate then reads exactly this text and the gate shows exactly this text, so
 * nothing a markdown view would hide is shown, and nothing shown goes unread:
 * - emphasis and headings are presentation: their text stays, the marks go ("can*cel*led" is "cancelled");
 * - a link shows its text and, when it differs, its target in brackets after it: "details (https://…)";
 * - struck-through text and images (alt text and all) are removed: a markdown view shows them crossed out or
 *   not as words, so they are neither shown nor read;
 * - HTML is not markup here: it stays literally in the text, where the reader refuses its angle brackets;
 * - code, list items, quotes and table cells are text: each list item, table row and block on its own line;
 * - a link reference definition that nothing uses (a footnote's body) is what a markdown view hides: removed;
 *   one that is used shows as a link's target;
 * - invisible (default-ignorable and format) characters are removed from what is shown, as from what is read.
 */
const parser = new MarkdownIt("default", { html: false, linkify: false, typographer: false }).disable([
  "linkify",
  "replacements",
  "smartquotes",
  "html_inline",
  "html_block",
]);

type Token = ReturnType<typeof parser.parse>[number];

export function renderForCustomer(markdown: string): string {
  const blocks: string[] = [];
  let line = "";
  const endLine = () => {
    if (line.trim() !== "") blocks.push(line.trim());
    line = "";
  };
  let row: string[] | undefined;
  let cell = "";
  for (const token of parser.parse(markdown, {})) {
    switch (token.type) {
      case "inline":
        if (row) cell += inline(token.children ?? []);
        else line += inline(token.children ?? []);
        break;
      case "code_block":
      case "fence":
        endLine();
        for (const codeLine of token.content.split("\n")) if (codeLine.trim() !== "") blocks.push(codeLine.trim());
        break;
      case "list_item_open":
        endLine();
        line = "- ";
        break;
      case "tr_open":
        endLine();
        row = [];
        break;
      case "th_close":
      case "td_close":
        row?.push(cell.trim());
        cell = "";
        break;
      case "tr_close":
        if (row?.some((c) => c !== "")) blocks.push(row.join(", "));
        row = undefined;
        break;
      case "paragraph_close":
      case "heading_close":
      case "list_item_close":
      case "blockquote_close":
      case "hr":
        endLine();
        break;
      default:
        break;
    }
  }
  endLine();
  return blocks
    .join("\n")
    .replace(/[\p{Default_Ignorable_Code_Point}\p{Cf}]/gu, "")
    .replace(/[^\S\n]+/g, " ")
    .replace(/^- ?$\n?/gm, "")
    .trim();
}

function inline(tokens: readonly Token[]): string {
  let out = "";
  let struck = 0;
  const links: { href: string; start: number }[] = [];
  for (const token of tokens) {
    switch (token.type) {
      case "s_open":
        struck += 1;
        break;
      case "s_close":
        struck -= 1;
        break;
      case "link_open":
        links.push({ href: String(token.attrGet("href") ?? ""), start: out.length });
        break;
      case "link_close": {
        const link = links.pop();
        if (link && struck === 0) {
          const text = out.slice(link.start).trim();
          if (link.href !== "" && link.href !== text && link.href !== `mailto:${text}`) out += ` (${decodeTarget(link.href)})`;
        }
        break;
      }
      case "text":
      case "code_inline":
        if (struck === 0) out += token.content;
        break;
      case "softbreak":
      case "hardbreak":
        if (struck === 0) out += "\n";
        break;
      default:
        // Images and emphasis marks: an image is not text, and emphasis is only its text.
        break;
    }
  }
  return out;
}

/** A target as its author wrote it: markdown-it percent-encodes it for HTML, which would hide its words. */
function decodeTarget(href: string): string {
  try {
    return decodeURI(href);
  } catch {
    return href;
  }
}
