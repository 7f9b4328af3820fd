import type { Dataspec, FlowRecord } from '../../../api/index.js';
import { describeRange, toIso } from '../../../time/index.js';
import type { Fact, OpSuccess } from '../../outcome.js';
import type { ResolvedData, ResolvedOutput } from '../requests.js';

/** What the entries share to describe a result: facts about data and outputs, and the service's records. */

export const ACTIVITY_VIEW_HINT = "Track its progress in the service's Activity view.";

export function str(v: unknown): string | undefined {
  return typeof v === 'string' && v !== '' ? v : undefined;
}

export function modelSeen(m: { id: string; name?: unknown; workspace?: unknown }): OpSuccess['seen'] {
  return {
    id: m.id,
    ...(str(m.name) ? { name: str(m.name)! } : {}),
    ...(str(m.workspace) ? { workspace: str(m.workspace)! } : {}),
  };
}

export function flowOf(record: FlowRecord): { id: string; status: string } {
  return { id: record.id, status: str(record.status) ?? 'unknown' };
}

export function toDataspec(data: ResolvedData): Dataspec {
  if (data.kind === 'dataspec') return { id: data.dataspecId };
  return {
    name: data.dataspecName,
    specs: [
      {
        timeRanges: data.ranges.map((r) => ({ startTime: toIso(r.startNs), endTime: toIso(r.endNs) })),
        signals: data.signals.map((s) => ({ signal: s.signal, name: s.name })),
      },
    ],
  };
}

export function dataFacts(data: ResolvedData, timeZone: string): Fact[] {
  if (data.kind === 'dataspec') return [{ label: 'Dataspec', value: data.dataspecId, code: true }];
  return [
    {
      label: data.signals.length === 1 ? 'Signal' : 'Signals',
      value: data.signals.map((s) => (s.name === s.signal ? s.signal : `${s.signal} (${s.name})`)).join('\n'),
    },
    {
      label: data.ranges.length === 1 ? 'Time range' : 'Time ranges',
      value: data.ranges.map((r) => describeRange(r, timeZone)).join('\n'),
    },
  ];
}

export function outputFacts(output: ResolvedOutput): Fact[] {
  if (output.kind === 'prefix') {
    return [{ label: 'Outputs', value: `new signals named ${output.prefix}/<output name>` }];
  }
  return [
    {
      label: 'Outputs',
      value: output.signals
        .map((s) => (s.name === s.signal ? s.signal : `${s.name} → ${s.signal}`))
        .join('\n'),
    },
  ];
}

export function described(description: string | undefined): Fact[] {
  return description ? [{ label: 'Description', value: description }] : [];
}
