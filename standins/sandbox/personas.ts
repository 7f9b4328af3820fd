import type { Role } from '../emulator/people.js';
import type { LocalUser } from '../localslack/types.js';

/** What the page shows a persona so they can act as themselves in the service: who they are there, and a token. */
export interface ServiceIdentity {
  /** Their name in the emulator (their Slack name). */
  name: string;
  role: Role;
  token: string;
}

/**
 * The demo people's roles in the emulator. Alice requests live starts and may run them herself; bob
 * approves them and may run them too; carol approves but is a User in the service, so acting as herself
 * she can analyse but gets a 403 for live start, stop and moves. Anyone else is a User.
 */
export const PERSONA_ROLES: Readonly<Record<string, Role>> = {
  alice: 'Owner',
  bob: 'Manager',
  carol: 'User',
};

/**
 * A fresh emulator token for each person of the local Slack, keyed by Slack user ID. A person the
 * emulator refuses, or an emulator that does not answer, is told to `problem` and left without one.
 */
export async function issueServiceTokens(
  emulatorUrl: string,
  people: LocalUser[],
  problem: (text: string) => void,
): Promise<Map<string, ServiceIdentity>> {
  const issued = new Map<string, ServiceIdentity>();
  for (const person of people) {
    if (person.isBot) continue;
    const role = Object.hasOwn(PERSONA_ROLES, person.name) ? PERSONA_ROLES[person.name]! : 'User';
    try {
      const r = await fetch(new URL('/_emulator/users', emulatorUrl), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: person.name, role }),
        signal: AbortSignal.timeout(5000),
      });
      const body = (await r.json()) as { token?: unknown; message?: unknown };
      if (r.status !== 201 || typeof body.token !== 'string') {
        problem(`the emulator gave ${person.name} no token: ${String(body.message ?? `HTTP ${r.status}`)}`);
        continue;
      }
      issued.set(person.id, { name: person.name, role, token: body.token });
    } catch (err) {
      problem(
        `the emulator gave ${person.name} no token: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
  }
  return issued;
}
