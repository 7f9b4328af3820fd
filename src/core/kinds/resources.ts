import type { LinkKind, ResourceKind } from '../catalog/kind.js';

/**
 * The kinds of the service's resources the catalog knows by name, each declared once. An argument names
 * one in its lookup (`lookup: { names: MODEL }`), an output in what the catalog records it as; a new kind
 * is one more declaration like these, in any module (a test's own included).
 */

/** A kind of resource kept under its name: what one and several are called, and a name one might have. */
const kind = (
  name: string,
  [one, many]: [string, string],
  example: string,
  narrowedBy?: readonly LinkKind[],
): ResourceKind => ({ name, one, many, example, ...(narrowedBy ? { narrowedBy } : {}) });

export const WORKSPACE = kind('workspace', ['workspace', 'workspaces'], 'Pump station A');

/** A model is one of an assessment's (its live model), else of a workspace's. */
export const MODEL = kind('model', ['model', 'models'], 'Pump station A/anomaly/M[1]', [
  'assessment',
  'workspace',
]);

export const ASSESSMENT = kind('assessment', ['assessment', 'assessments'], 'Temperature anomaly');

export const DATASTREAM = kind('datastream', ['datastream', 'datastreams'], 'Plant sensors');

export const SIGNAL = kind('signal', ['signal', 'signals'], 'Bearing temperature');

/** A dataspec is one a model learned from (with a model chosen, its dataspecs are offered). */
export const DATASPEC = kind('dataspec', ['dataspec', 'dataspecs'], 'Baseline October', [
  'model',
  'workspace',
]);

/** What a scoring creates: recorded from its outputs, taken by no argument yet. */
export const EVAL = kind('eval', ['Eval object', 'Eval objects'], 'pump-3 scores');
