/**
 * The deployment's settings of the MCP confirmation (contract §2.1), apart from the confirmation itself so the CDK
 * app can check them at synth without loading the function's code: the environment the stack gives the MCP
 * function, and what a change from a client that cannot be asked gets.
 */

/** What a change from a client that cannot be asked gets: the change as before, or a refusal that says why. */
export const unconfirmedChangesSettings = ["allow", "refuse"] as const;
export type UnconfirmedChanges = (typeof unconfirmedChangesSettings)[number];

/** The MCP function's environment: the KMS key that signs questions, and what an unaskable client gets. */
export const confirmationKeyEnv = "ORDER_TOOLS_MCP_CONFIRMATION_KEY";
export const unconfirmedChangesEnv = "ORDER_TOOLS_MCP_UNCONFIRMED_CHANGES";

/** The setting as written in the environment (or CDK context); unset is `allow`, anything else unknown is refused. */
export function unconfirmedChangesFrom(value: string | undefined): UnconfirmedChanges {
  if (value === undefined || value === "") return "allow";
  if ((unconfirmedChangesSettings as readonly string[]).includes(value)) return value as UnconfirmedChanges;
  throw new RangeError(
    `${unconfirmedChangesEnv} (CDK context mcpUnconfirmedChanges) is "${value}"; it must be one of ${unconfirmedChangesSettings.join(", ")}: allow makes a change a client cannot confirm as before, refuse answers it CONFIRMATION_REQUIRED.`,
  );
}

/**
 * Which MCP clients get the person's confirmation, and which mode is in force, in one line (the `npm start` banner
 * says it, so nobody runs the demo unaware that some clients' changes go out unasked).
 */
export function mcpConfirmationLine(mode: UnconfirmedChanges): string {
  const others =
    mode === "allow"
      ? "make changes without the person's confirmation (logged as unconfirmed and counted in UnconfirmedChange)"
      : "are refused changes (CONFIRMATION_REQUIRED)";
  return `MCP confirmation: 2026-07-28 clients that declare form elicitation ask the person before every change; other clients (no form elicitation, 2025 revisions) ${others}. Mode: ${unconfirmedChangesEnv}=${mode}${mode === "allow" ? " (the default; set it to refuse to refuse them)" : ""}.`;
}
