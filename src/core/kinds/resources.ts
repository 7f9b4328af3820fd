import type { ResourceKind } from '../catalog/kind.js';

/**
 * The kinds of the service's resources the catalog knows by name, each declared once. An argument names
 * one in its lookup (`lookup: { names: MODEL }`), an output in what the catalog records it as; a new kind
 * is one more declaration like these, in any module (a test's own included).
 */

export const WORKSPACE: ResourceKind = {
  name: 'workspace',
  one: 'workspace',
  many: 'workspaces',
  example: 'Pump station A',
};

/** A model is one of an assessment's (its live model), else of a workspace's. */
export const MODEL: ResourceKind = {
  name: 'model',
  one: 'model',
  many: 'models',
  example: 'Pump station A/anomaly/M[1]',
  narrowedBy: ['assessment', 'workspace'],
};

export const ASSESSMENT: ResourceKind = {
  name: 'assessment',
  one: 'assessment',
  many: 'assessments',
  example: 'Temperature anomaly',
};

export const DATASTREAM: ResourceKind = {
  name: 'datastream',
  one: 'datastream',
  many: 'datastreams',
  example: 'Plant sensors',
};

export const SIGNAL: ResourceKind = {
  name: 'signal',
  one: 'signal',
  many: 'signals',
  example: 'Bearing temperature',
};

/** A dataspec is one a model learned from (with a model chosen, its dataspecs are offered). */
export const DATASPEC: ResourceKind = {
  name: 'dataspec',
  one: 'dataspec',
  many: 'dataspecs',
  example: 'Baseline October',
  narrowedBy: ['model', 'workspace'],
};

/** What a scoring creates: recorded from its outputs, taken by no argument yet. */
export const EVAL: ResourceKind = {
  name: 'eval',
  one: 'Eval object',
  many: 'Eval objects',
  example: 'pump-3 scores',
};
