import { toIso } from '../../time/index.js';
import type { Operation } from './operation.js';

/** The request as JSON-safe parameters (time ranges as ISO strings), e.g. for the audit log. */
export function requestParams(req: Operation): Record<string, unknown> {
  return JSON.parse(
    JSON.stringify(req, (key, value) => {
      void key;
      return typeof value === 'bigint' ? toIso(value) : value;
    }),
  ) as Record<string, unknown>;
}
