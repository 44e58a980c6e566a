/**
 * Function words a delivery note may gain or lose between the customer's message and the proposal (the provenance
 * control's reading of a note, guard/values.ts), and that the guards leave out of a message's content words.
 */
const words = (text: string): string[] => text.trim().split(/\s+/);

/**
 * Emoji that say only friendliness, the one set for every reading: a request in the closed form, an answer, and a
 * reply's courtesy. Any other pictograph is a sign (yes, no) or says something, and is read as such.
 */
export const courtesyEmoji = /(?:🙂|😊|😀|👋|🙏|🙌)\uFE0F?/gu;

export const smallWords = new Set(words(`a an the to of at in on by for with and or please it is my me i be if`));
