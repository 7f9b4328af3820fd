import type { z } from 'zod';
import { formatDuration } from './duration.js';
import { RETIRED, VARIABLES, type Values, type Variable, type VariableName } from './variables.js';

export interface ConfigProblem {
  variable: string;
  problem: string;
}

/** Something to tell whoever runs the bot (an old name, a variable no longer read); never carries a value. */
export interface ConfigNotice {
  variable: string;
  message: string;
}

export type Env = Record<string, string | undefined>;

export interface ReadVariables {
  values: Values;
  /** Whether the variable (or one of its old names) is set to something. */
  isSet: (name: VariableName) => boolean;
  problems: ConfigProblem[];
  notices: ConfigNotice[];
}

function given(env: Env, name: string): string | undefined {
  const v = env[name]?.trim();
  return v === undefined || v === '' ? undefined : v;
}

/**
 * Reads every variable of the table: the current name wins over an old one, an old one still works with a
 * notice naming the new name, and every bad value becomes a problem naming the variable as it was set.
 */
export function readVariables(env: Env): ReadVariables {
  const problems: ConfigProblem[] = [];
  const notices: ConfigNotice[] = [];
  const values: Record<string, unknown> = {};
  const set = new Set<VariableName>();
  for (const name of Object.keys(VARIABLES) as VariableName[]) {
    const v: Variable<unknown> = VARIABLES[name];
    const chosen = choose(env, name, v, notices);
    if (chosen === undefined) {
      values[name] = v.default;
      continue;
    }
    set.add(name);
    const result = chosen.schema.safeParse(chosen.raw);
    if (result.success) values[name] = result.data;
    else {
      // The checks across variables then see the default rather than nothing.
      values[name] = v.default;
      const problem = result.error.issues[0]?.message ?? 'is invalid';
      problems.push({
        variable: chosen.name,
        problem: chosen.name === name ? problem : `${problem} (its new name is ${name})`,
      });
    }
  }
  for (const [name, instead] of Object.entries(RETIRED))
    if (given(env, name) !== undefined)
      notices.push({ variable: name, message: `${name} is no longer read: ${instead}; remove it` });
  return { values: values as Values, isSet: (name) => set.has(name), problems, notices };
}

/** What changes besides the name: the new duration variables want a unit where the old ones took ms. */
function unitHint(v: Variable<unknown>): string {
  return v.format === 'duration' && typeof v.default === 'number'
    ? `, whose value takes a unit (e.g. ${formatDuration(v.default)})`
    : '';
}

function choose(
  env: Env,
  name: string,
  v: Variable<unknown>,
  notices: ConfigNotice[],
): { name: string; raw: string; schema: z.ZodType<unknown> } | undefined {
  const current = given(env, name);
  let chosen = current === undefined ? undefined : { name, raw: current, schema: v.schema };
  for (const alias of v.aliases ?? []) {
    const old = given(env, alias.name);
    if (old === undefined) continue;
    if (chosen) {
      notices.push({
        variable: alias.name,
        message: `${alias.name} is deprecated and ignored: ${chosen.name} is also set and wins; remove ${alias.name}`,
      });
      continue;
    }
    notices.push({
      variable: alias.name,
      message: `${alias.name} is deprecated: rename it to ${name}${unitHint(v)}`,
    });
    chosen = { name: alias.name, raw: old, schema: alias.schema };
  }
  return chosen;
}
