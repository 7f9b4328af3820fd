import type { CatalogKind, CatalogLinks, CatalogUpsert } from '../../store/index.js';
import type { SignalRef } from '../grammar/types.js';
import type { ResolvedData } from '../operations/requests.js';

/** How an operation's entry names what it teaches the catalog: the pieces, worded once. */

/** Resources a user names in a request are known by their IDs; only signal labels give them names. */
export const typed = (kind: CatalogKind, id: string, links?: CatalogLinks): CatalogUpsert => ({
  kind,
  id,
  source: 'command',
  ...(links ? { links } : {}),
});

/** A label equal to the ID is the grammar's default, not a name. */
export function signalEntries(signals: readonly SignalRef[]): CatalogUpsert[] {
  return signals.map((s) => ({
    kind: 'signal',
    id: s.signal,
    source: 'command',
    ...(s.name !== s.signal ? { name: s.name } : {}),
  }));
}

export function dataEntries(data: ResolvedData): CatalogUpsert[] {
  return data.kind === 'dataspec' ? [typed('dataspec', data.dataspecId)] : signalEntries(data.signals);
}
