/**
 * Token counts with a real tokenizer: gpt-tokenizer's o200k_base, the encoding of OpenAI's GPT-4o and later
 * models. Other vendors' tokenizers differ by some percent either way; the ratios between payloads carry over.
 */
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";

export const tokenEncoding = "o200k_base (gpt-tokenizer)";

/** Tokens of a tool result as the model receives it: the response body, JSON text exactly as sent. */
export const tokensOf = (text: string): number => countTokens(text);
