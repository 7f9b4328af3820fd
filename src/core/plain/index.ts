/**
 * Plain requests: a sentence read into the bot's commands by what each declares (`CommandSpec.said`), the
 * catalog's names and the time reader, never run here: the surface shows what was read and waits for a
 * click, or answers at once a question that changes nothing (docs/mentions.md, "Plain requests").
 */
export { bestSaid, commandsSaid } from './phrases.js';
export { type Reading, readSentence, type Sentence, type SentenceReading } from './read.js';
export { isSentence, startsWithCommand } from './sentence.js';
