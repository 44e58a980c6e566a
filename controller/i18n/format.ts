/**
 * The controller's message catalogues are rendered as the service's are: one ICU MessageFormat renderer, in the
 * contract's folder, which both the service (the MCP endpoint's questions) and the controller may import.
 */
export { type Catalogue, formatMessage, type MessageValues } from "#contract/message-format";
