import type { TimeRange } from '../../time/index.js';

// The resolved-request shapes of the command path (src/core/operations/requests.ts on the bot's branch):
// the modals produce the same requests and hand them to the same `execute`, so a modal and a command
// create identical flows and post identical messages.
export interface SignalRef {
  signal: string;
  name: string;
}
export type ResolvedData =
  | { kind: 'inline'; signals: SignalRef[]; ranges: TimeRange[]; dataspecName: string }
  | { kind: 'dataspec'; dataspecId: string };
export type ResolvedOutput = { kind: 'prefix'; prefix: string } | { kind: 'signals'; signals: SignalRef[] };

export type ModalRequest =
  | {
      kind: 'eval';
      name: string;
      assessmentId: string;
      modelId: string;
      datastreamId: string;
      entities: string[];
      range: TimeRange;
    }
  | {
      kind: 'learn';
      name: string;
      description?: string;
      workspaceId: string;
      modelName?: string;
      data: ResolvedData;
    }
  | {
      kind: 'relearn';
      name: string;
      description?: string;
      modelId: string;
      workspaceId: string;
      data: ResolvedData;
    }
  | {
      kind: 'score';
      name: string;
      description?: string;
      modelId: string;
      workspaceId: string;
      data: ResolvedData;
      output: ResolvedOutput;
    };
