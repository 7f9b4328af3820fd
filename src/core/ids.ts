/**
 * Service IDs are numeric strings of 18–19 digits (service convention). They exceed 2^53,
 * so they stay strings end to end; checking the shape here keeps typos away from the service.
 */
export const SERVICE_ID = /^\d{18,19}$/;

/**
 * The IDs every example in help and errors uses: the sandbox's demo data, so an example works as typed there
 * from a fresh start (`flow` is the finished learn that built the demo model M[1]).
 */
export const EXAMPLE_IDS = {
  workspace: '1030000000000000001',
  model: '1070000000000000002',
  assessment: '1060000000000000001',
  datastream: '1040000000000000001',
  signal: '1050000000000000001',
  signal2: '1050000000000000002',
  /** The demo anomaly score signal: an output the demo models' `anomaly_score` can be written into. */
  scoreSignal: '1050000000000000005',
  dataspec: '1080000000000000001',
  flow: '1090000000000000001',
} as const;

export function isServiceId(value: string): boolean {
  return SERVICE_ID.test(value);
}
