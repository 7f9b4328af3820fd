import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import type { FunctionDefinition } from '../../standins/localslack/index.js';

/** The steps manifest.yml declares, as the local Slack offers them to Workflow Builder. */
export function manifestFunctionsOnDisk(): Record<string, FunctionDefinition> {
  return (
    parse(readFileSync(new URL('../../manifest.yml', import.meta.url), 'utf8')) as {
      functions: Record<string, FunctionDefinition>;
    }
  ).functions;
}
