import { findSpec } from '../../core/grammar/commands.js';
import { commandArguments } from '../../core/grammar/parse.js';
import { REGISTRY } from '../../core/operations/registry/index.js';

/** A prompt the assistant pane offers: its title, and the message a click sends as the person's own. */
export interface Prompt {
  title: string;
  message: string;
}

/** Slack shows up to four prompts in a thread. */
export const MAX_PROMPTS = 4;

/** What a person did lately, as the bot followed it: a flow they started and the command that asked it. */
export interface Recent {
  flowId: string;
  asked: string;
}

/** The lookup every person can ask at once, whatever they did before: what was started from here. */
const LOOKUP = 'flows';

/** A command's summary up to its first pause: `Train a new anomaly model`. */
const firstClause = (summary: string) => summary.split(/[,.:(;]/)[0]!.trim();

/**
 * Each operation whose form opens from Slack's shortcuts (the ones a team uses most), as a prompt of its
 * words alone: the pane answers it with its form, so it works as typed for anyone, before any name or ID
 * is known. Titled as the form is.
 */
function operationPrompts(): Prompt[] {
  return REGISTRY.filter((e) => e.form?.shortcut).map((e) => ({
    title: e.form!.title,
    message: e.command.words.join(' '),
  }));
}

/** The command table's lookup of what was started where the person asks. */
function lookupPrompt(): Prompt | undefined {
  const spec = findSpec(LOOKUP);
  return spec ? { title: firstClause(spec.summary), message: spec.words.join(' ') } : undefined;
}

/**
 * The prompts of the assistant pane, derived from the registry and from what the person did last: how
 * their last flow is doing (`flow <id>`), the forms of the operations they used lately first, then the
 * others' a team uses most, and the lookup of what was started from where they are. Without a past
 * (`recent` empty) they are the manifest's own suggested prompts.
 */
export function suggestedPrompts(recent: readonly Recent[] = []): Prompt[] {
  const operations = operationPrompts();
  const wordsOf = (r: Recent) => commandArguments(r.asked)?.spec.words.join(' ');
  const used: Prompt[] = [];
  for (const r of recent) {
    const prompt = operations.find((p) => p.message === wordsOf(r));
    if (prompt && !used.includes(prompt)) used.push(prompt);
  }
  const last = recent[0];
  const lastWords = last && wordsOf(last);
  const mine: Prompt[] = last
    ? [{ title: `How is my last ${lastWords ?? 'flow'} doing?`, message: `flow ${last.flowId}` }]
    : [];
  const lookup = lookupPrompt();
  const offered = [...mine, ...used, ...operations.filter((p) => !used.includes(p))];
  return [...offered.slice(0, MAX_PROMPTS - (lookup ? 1 : 0)), ...(lookup ? [lookup] : [])];
}
