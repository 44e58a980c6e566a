import { describe, expect, it } from "vitest";
import { mcpConfirmationLine } from "#runtime/mcp-confirmation-settings";

/** What the `npm start` banner says of MCP confirmations (contract §2.1): which clients are asked, which mode is in force. */
describe("the banner's MCP confirmation line", () => {
  it("under allow, says which clients' changes go out unasked, that they are logged and counted, and the mode", () => {
    expect(mcpConfirmationLine("allow")).toBe(
      "MCP confirmation: 2026-07-28 clients that declare form elicitation ask the person before every change; other clients (no form elicitation, 2025 revisions) make changes without the person's confirmation (logged as unconfirmed and counted in UnconfirmedChange). Mode: ORDER_TOOLS_MCP_UNCONFIRMED_CHANGES=allow (the default; set it to refuse to refuse them).",
    );
  });

  it("under refuse, says those clients' changes are refused", () => {
    expect(mcpConfirmationLine("refuse")).toMatch(
      /other clients \(no form elicitation, 2025 revisions\) are refused changes \(CONFIRMATION_REQUIRED\)\. Mode: ORDER_TOOLS_MCP_UNCONFIRMED_CHANGES=refuse\.$/,
    );
  });
});
