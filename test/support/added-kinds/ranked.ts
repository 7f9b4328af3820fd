import type { OutputType, ShownPart } from '../../../src/core/kinds/kind.js';
import { isNamed } from '../../../src/core/kinds/outputs/named.js';

/**
 * A new type of output, declared by a test alone: resources ranked by how much each counted (the signals
 * that contributed most to a model's anomalies), each with its score, most first.
 */
export interface Ranked {
  id: string;
  name?: string;
  score: number;
}

const isRanked = (v: unknown): v is Ranked =>
  isNamed(v) && typeof (v as { score?: unknown }).score === 'number';

export const RANKED: OutputType<Ranked[]> = {
  name: 'ranked',
  fits: (v): v is Ranked[] => Array.isArray(v) && v.length > 0 && v.every(isRanked),
  show: (v) =>
    v.map((x, i): ShownPart[] => [
      { text: `${i + 1}. ${x.name ? `${x.name} ` : ''}` },
      { code: x.id },
      { text: ` (${x.score.toFixed(2)})` },
    ]),
  step: [
    {
      suffix: '',
      type: 'text',
      title: (label) => `${label} (IDs, most first)`,
      read: (v) => v.map((x) => x.id).join(','),
    },
    { suffix: '_top', type: 'text', title: (label) => `${label}: the first`, read: (v) => v[0]!.id },
  ],
  idOf: () => undefined,
  resources: (v) => v.map(({ id, name }) => ({ id, ...(name ? { name } : {}) })),
  flag: () => undefined,
};
