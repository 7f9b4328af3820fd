import { describe, expect, it } from 'vitest';
import type { DigestData } from '../../src/core/schedules/digest.js';
import { digestMessage } from '../../src/slack/schedules/digest.js';
import type { TrackedFlow } from '../../src/store/index.js';
import { checkBlockKitLimits } from '../../src/wire/block-kit.js';
import { trackedFlowRecord } from '../support/fixtures/records.js';

/** A channel's digest names what each completed flow yielded, as its entry declares and its end notice shows. */

const T = Date.UTC(2026, 10, 22, 10, 42);
const id = (n: number) => `14000000000000${String(n).padStart(5, '0')}`;
const EVIL = '<!channel> *bold* & more';

function flow(n: number, operation: Record<string, unknown>, result: Record<string, unknown>): TrackedFlow {
  return trackedFlowRecord({ flowId: id(n), request: { operation, outcome: {} }, createdAt: T, result });
}

function digestOf(completed: TrackedFlow[]): DigestData {
  return {
    channelId: 'C0OPS',
    since: T - 86_400_000,
    until: T,
    started: completed,
    completed,
    failed: [],
    running: [],
    waiting: [],
    decided: [],
    troubled: [],
    next: [],
  };
}

describe('the digest’s completed flows', () => {
  it('each line says what its flow yielded, under the headings its end notice uses, escaped', () => {
    const learned = flow(
      1,
      { kind: 'learn', workspaceId: id(9) },
      {
        models: [{ id: id(2), name: EVIL, created: true, live: false, assessment: id(3) }],
        dataspecs: [{ id: id(4) }],
      },
    );
    const backfill = flow(
      5,
      {
        kind: 'eval',
        modelId: id(2),
        assessmentId: id(3),
        range: { startNs: '2026-11-20T09:00:00.000Z', endNs: '2026-11-20T17:00:00.000Z' },
      },
      {},
    );
    const body = digestMessage(digestOf([learned, backfill]), 'Europe/London');
    const text = JSON.stringify(body.blocks);
    expect(text).toContain(`Model created &lt;!channel&gt; *bold* &amp; more \`${id(2)}\``);
    expect(text).toContain(`Dataspec \`${id(4)}\``);
    expect(text).toContain(`Assessment (its signal) \`${id(3)}\``);
    expect(text).toContain('Backfilled');
    expect(text).toContain(`Live model \`${id(2)}\``);
    // What is not shown at the end (the workspace, the live flag) is not on the line either.
    expect(text).not.toContain(id(9));
    expect(checkBlockKitLimits({ text: body.text, blocks: body.blocks }, 'message')).toEqual([]);
  });

  it('a flow that yielded much keeps its line short, whole outputs only, and says where the rest is', () => {
    const scored = flow(
      6,
      { kind: 'score', workspaceId: id(9), modelId: id(2), output: { kind: 'prefix', prefix: 'p' } },
      {
        evals: [
          {
            id: id(7),
            name: 'e'.repeat(150),
            outputSignals: Array.from({ length: 40 }, (_, i) => ({ id: id(100 + i), name: `signal ${i}` })),
          },
        ],
      },
    );
    const line = JSON.stringify(digestMessage(digestOf([scored]), 'UTC').blocks);
    expect(line).toContain(`Eval object ${'e'.repeat(150)} \`${id(7)}\``);
    expect(line).not.toContain(id(139));
    expect(line).toContain(`more output: \`/tsai flow ${id(6)}\``);
  });
});
