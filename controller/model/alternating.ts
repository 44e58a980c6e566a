import { type ChatMessage, noteText, principalText } from "#controller/model/types";

type ToolMessage = Extract<ChatMessage, { role: "tool" }>;
type ToolCall = Extract<ChatMessage, { role: "assistant" }>["toolCalls"][number];

/** How one provider writes each part of the neutral conversation as its content blocks. */
export interface BlockWriter<Block> {
  /** The principal's words or an application note, already framed. */
  text(text: string): Block;
  toolResult(message: ToolMessage): Block;
  toolCall(call: ToolCall): Block;
}

export interface AlternatingMessage<Block> {
  role: "user" | "assistant";
  content: Block[];
}

/**
 * The neutral conversation as the alternating user and assistant messages that Anthropic's Messages API and
 * Bedrock's Converse both want. Customer text, application notes and tool results are all `user` content, and
 * consecutive ones go in one message, the tool results first. Both refuse a blank text block and an empty
 * message, so neither is sent: a blank customer message, and an assistant turn that said nothing and called
 * nothing, add nothing to the conversation.
 */
export function alternatingMessages<Block>(messages: readonly ChatMessage[], write: BlockWriter<Block>): AlternatingMessage<Block>[] {
  const out: AlternatingMessage<Block>[] = [];
  let results: Block[] = [];
  let texts: Block[] = [];
  const flushUser = () => {
    if (results.length === 0 && texts.length === 0) return;
    out.push({ role: "user", content: [...results, ...texts] });
    results = [];
    texts = [];
  };
  for (const message of messages) {
    switch (message.role) {
      case "customer":
        if (message.text.trim() !== "") texts.push(write.text(principalText(message.text)));
        break;
      case "note":
        texts.push(write.text(noteText(message.text)));
        break;
      case "tool":
        results.push(write.toolResult(message));
        break;
      case "assistant": {
        const content: Block[] = [];
        if (message.text.trim() !== "") content.push(write.text(message.text));
        for (const call of message.toolCalls) content.push(write.toolCall(call));
        if (content.length === 0) break;
        flushUser();
        out.push({ role: "assistant", content });
        break;
      }
    }
  }
  flushUser();
  return out;
}
