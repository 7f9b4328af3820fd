import type { DataMode, OutputMode } from './field-names.js';

/**
 * The either/or choices a form offers, worded once: where an anomaly flow's data comes from (new signals
 * and ranges, or an existing dataspec) and where ANOMALYEVAL writes its outputs (new signals with a
 * prefix, or existing ones). Each argument says which side it is on (`Argument.side`); which operation
 * asks is never looked at. A choice is made by its radio button, else read from what was filled in.
 */
export interface Choice<Option extends string> {
  radio: 'dataMode' | 'outputMode';
  /** How the form asks: the radio's label, hint and the words of each option, in order. */
  label: string;
  hint?: string;
  options: Record<Option, string>;
  /** By the option chosen: what a person is told under a filled field of another option. */
  clearOthers: Record<Option, string>;
  /** The radio unset and both or neither sides filled in: the option taken. Absent: the person is asked. */
  fallback?: Option;
  /** With no fallback: what a person is asked under the filled fields and the radio, or the radio alone. */
  ask?: { both: string; bothRadio: string; neither: string };
}

export const CHOICES = {
  data: {
    radio: 'dataMode',
    label: 'Data',
    options: { new: 'New: signals and time ranges', dataspec: 'Reuse an existing dataspec ID' },
    clearOthers: {
      new: 'Data is set to "New: signals and time ranges": clear this field, or choose "Reuse".',
      dataspec: 'Data is set to "Reuse an existing dataspec ID": clear this field, or choose "New".',
    },
    fallback: 'new',
  } satisfies Choice<DataMode>,
  outputs: {
    radio: 'outputMode',
    label: 'Where outputs go',
    hint: 'Choose exactly one, and fill in its field below.',
    options: { prefix: 'New signals with a prefix', map: 'Map to existing signals' },
    clearOthers: {
      prefix:
        'Outputs go to new signals with a prefix: clear this mapping, or choose "Map to existing signals".',
      map: 'Outputs are mapped to existing signals: clear this prefix, or choose "New signals with a prefix".',
    },
    ask: {
      both: 'Fill in either the output prefix or the mapping to existing signals, not both.',
      bothRadio: 'Choose where the outputs go.',
      neither:
        'Choose where the outputs go: new signals with a prefix (e.g. pump-7/anomaly), or existing signals.',
    },
  } satisfies Choice<OutputMode>,
} as const;

export type ChoiceName = keyof typeof CHOICES;

/** Which side of a choice an argument is on. */
export type ChoiceSide = {
  [C in ChoiceName]: {
    choice: C;
    option: keyof (typeof CHOICES)[C]['clearOthers'];
    /** A detail of its side (a new dataspec's name): never required, and filling it in picks no side. */
    detail?: true;
  };
}[ChoiceName];
