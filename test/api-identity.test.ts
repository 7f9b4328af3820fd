import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServiceClient, ServiceError } from '../src/api/index.js';
import { type RunningEmulator, startEmulator } from '../standins/emulator/index.js';
import { type NamedClient, named } from './support/service-calls.js';

describe('calls with a given token', () => {
  let emu: RunningEmulator;
  let sharedless: NamedClient;
  beforeAll(async () => {
    emu = await startEmulator({ host: '127.0.0.1', port: 0 });
    sharedless = named(createServiceClient({ baseUrl: emu.url, accountId: emu.accountId }));
  });
  afterAll(async () => {
    await sharedless.close();
    await emu.close();
  });

  const requests = async () =>
    ((await (await fetch(`${emu.url}/_emulator/requests`)).json()) as { path: string }[]).filter((r) =>
      r.path.startsWith('/api/'),
    );

  it('without a shared token, a call that names none is not sent', async () => {
    const before = (await requests()).length;
    const err = await sharedless.createWorkspace({ name: 'nobody' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ServiceError);
    expect((err as ServiceError).userMessage).toContain('no service token');
    expect((await requests()).length).toBe(before);
  });

  it('as(token) reaches the service with that token', async () => {
    const ws = await sharedless.as(emu.token).createWorkspace({ name: 'made with a person token' });
    expect(ws.name).toBe('made with a person token');
  });

  it("a rejected person's token is a 401 that never repeats the token", async () => {
    const token = 'person-token-that-expired';
    const err = (await sharedless
      .as(token)
      .getWorkspace('1353853719423311872')
      .catch((e: unknown) => e)) as ServiceError;
    expect(err.status).toBe(401);
    expect(JSON.stringify({ m: err.userMessage, s: err.serviceMessage })).not.toContain(token);
  });
});
