/**
 * Service IDs are numeric strings of 18–19 digits (service convention). They exceed 2^53,
 * so they stay strings end to end; checking the shape here keeps typos away from the service.
 */
export const SERVICE_ID = /^\d{18,19}$/;

export const EXAMPLE_IDS = {
  workspace: '1353853719423311872',
  model: '1353853719423311873',
  assessment: '1353853719423311874',
  datastream: '1353853719423311875',
  signal: '1353853719423311876',
  signal2: '1353853719423311877',
  dataspec: '1353853719423311878',
  flow: '1353853719423311879',
} as const;

export function isServiceId(value: string): boolean {
  return SERVICE_ID.test(value);
}
