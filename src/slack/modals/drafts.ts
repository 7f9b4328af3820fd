import { randomUUID } from 'node:crypto';
import { type Draft, decodeDraft, encodeDraft } from '../../core/forms/draft.js';
import type { ModalStore } from './deps.js';

/** Slack's limit on a button's value. */
const BUTTON_VALUE_MAX = 2000;
const INLINE = 'v1:';
const STORED = 'draft:';
const KEY_PREFIX = 'modal-draft:';
const MEMORY_MAX = 500;

/**
 * Keeps what a user typed for the "Reopen with my inputs" button.
 * A draft that fits in the button's value (2000 chars) travels inside it: nothing to store, nothing lost on
 * restart, works with any number of replicas. A larger one goes to the durable store (`setState`), or to
 * memory when the bot runs without a store (then a restart forgets it, and the button says so).
 */
export class DraftKeeper {
  private readonly memory = new Map<string, Draft>();

  constructor(
    private readonly store: ModalStore | undefined,
    private readonly now: () => Date,
  ) {}

  async save(draft: Draft): Promise<string> {
    const inline = INLINE + encodeDraft(draft);
    if (inline.length <= BUTTON_VALUE_MAX) return inline;
    const id = randomUUID();
    if (this.store) {
      await this.store.setState(KEY_PREFIX + id, { draft: encodeDraft(draft) }, this.now().getTime());
    } else {
      if (this.memory.size >= MEMORY_MAX) this.memory.delete(this.memory.keys().next().value!);
      this.memory.set(id, draft);
    }
    return STORED + id;
  }

  async load(value: string): Promise<Draft | undefined> {
    if (value.startsWith(INLINE)) return decodeDraft(value.slice(INLINE.length));
    if (!value.startsWith(STORED)) return undefined;
    const id = value.slice(STORED.length);
    if (this.store) {
      const row = await this.store.getState<{ draft?: string }>(KEY_PREFIX + id);
      return typeof row?.draft === 'string' ? decodeDraft(row.draft) : undefined;
    }
    return this.memory.get(id);
  }
}
