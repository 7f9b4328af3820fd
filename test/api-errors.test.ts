import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createServiceClient, ServiceError } from '../src/api/index.js';
import { parseJsonLossless } from '../src/wire/index.js';
import { SEED } from '../standins/emulator/index.js';
import { type Harness, startHarness } from './support/emulator.js';
import { named } from './support/service-calls.js';

async function failure(p: Promise<unknown>): Promise<ServiceError> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(ServiceError);
  return e as ServiceError;
}

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ maxAttempts: 2 });
});
beforeEach(() => h.reset());
afterAll(() => h.close());

describe('authentication and routing', () => {
  it('a wrong token is a 401 with a sentence about the token, and the token appears nowhere', async () => {
    const token = 'wrong-but-secret-token-42';
    const client = named(createServiceClient({ baseUrl: h.emu.url, accountId: SEED.accountId, token }));
    const e = await failure(client.getWorkspace(SEED.workspaces.pumpStation));
    await client.close();
    expect(e).toMatchObject({ kind: 'http', status: 401 });
    expect(e.userMessage).toMatch(/token/);
    expect(JSON.stringify({ ...e, message: e.message, stack: e.stack })).not.toContain(token);
    const log = JSON.stringify(await h.requests());
    expect(log).not.toContain(token);
    expect(log).not.toContain(h.emu.token);
  });

  it('the emulator answers 401 {"message"} without or with a wrong bearer token', async () => {
    const path = `/api/1.3/accounts/${SEED.accountId}/workspace/${SEED.workspaces.pumpStation}`;
    const res = await h.raw('GET', path, undefined, 'nope');
    expect(res).toMatchObject({ status: 401, json: { message: expect.any(String) } });
    const none = await fetch(h.emu.url + path);
    expect(none.status).toBe(401);
  });

  it('every endpoint answers 404 at the other version', async () => {
    const a = `/api/1.2/accounts/${SEED.accountId}`;
    const b = `/api/1.3/accounts/${SEED.accountId}`;
    const wrong: [string, string, unknown?][] = [
      ['POST', `${a}/workspace`, { name: 'x' }],
      ['GET', `${a}/workspace/${SEED.workspaces.pumpStation}`],
      ['PUT', `${a}/models/${SEED.models.temperatureAnomaly}`, { workspace: SEED.workspaces.sandbox }],
      ['GET', `${b}/models?assessment=${SEED.assessments.temperature}&isCommonModel=true&limit=1`],
      ['GET', `${a}/flows/1400000000000000001`],
      ['POST', `/api/1.4/accounts/${SEED.accountId}/flows`, { flowType: 'EVAL' }],
    ];
    for (const [method, path, body] of wrong) {
      const res = await h.raw(method, path, body);
      expect([method, path, res.status]).toEqual([method, path, 404]);
    }
    expect((await h.state()).workspaces).toHaveLength(2);
  });

  it('an unknown account is a 404 naming the account', async () => {
    const client = named(
      createServiceClient({
        baseUrl: h.emu.url,
        accountId: '1999999999999999999',
        token: h.emu.token,
      }),
    );
    const e = await failure(client.getWorkspace(SEED.workspaces.pumpStation));
    await client.close();
    expect(e).toMatchObject({ kind: 'http', status: 404 });
    expect(e.serviceMessage).toContain('account 1999999999999999999');
  });
});

describe('bad IDs are refused before any request', () => {
  it.each([
    ['empty', ''],
    ['slash', 'a/b'],
    ['space', 'a b'],
    ['newline', '123\n'],
    ['control', 'a\u0000b'],
    ['dot-dot', '..'],
    ['too long', '1'.repeat(129)],
  ])('%s', async (_label, id) => {
    const e = await failure(h.client.getWorkspace(id));
    expect(e.kind).toBe('bad-id');
    expect(e.userMessage).toMatch(/not a valid workspace ID/);
    expect((await failure(h.client.moveModel(id, SEED.workspaces.sandbox))).kind).toBe('bad-id');
    expect((await failure(h.client.findCommonModel(id))).kind).toBe('bad-id');
    expect((await failure(h.client.getFlow(id))).kind).toBe('bad-id');
    expect(await h.requests()).toHaveLength(0);
  });

  it('IDs with reserved URL characters are encoded, not refused', async () => {
    const e = await failure(h.client.getWorkspace('a?b#c%d'));
    expect(e.status).toBe(404);
    const [r] = await h.requests();
    expect(r!.path).toBe(`/api/1.3/accounts/${SEED.accountId}/workspace/a%3Fb%23c%25d`);
    expect(e.serviceMessage).toContain('workspace a?b#c%d');
  });
});

describe('error sentences', () => {
  it.each([
    [403, /role .* lacks permission/],
    [400, /rejected the request: told you so/],
    [500, /failed to handle the request \(HTTP 500\)/],
    [409, /refused the request \(HTTP 409\)/],
  ])('HTTP %i', async (status, sentence) => {
    await h.fault({ method: 'POST', status, message: 'told you so' });
    const e = await failure(h.client.createWorkspace({ name: 'x' }));
    expect(e).toMatchObject({ kind: 'http', status, serviceMessage: 'told you so' });
    expect(e.userMessage).toMatch(sentence);
  });

  it('shows the raw text when an error body is not JSON', async () => {
    await h.fault({ method: 'GET', status: 400, body: 'plain <b>text</b> failure' });
    const e = await failure(h.client.getWorkspace(SEED.workspaces.pumpStation));
    expect(e.serviceMessage).toBe('plain <b>text</b> failure');
  });

  it.each([
    [
      'a proxy page: its title',
      '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>',
      'text/html',
      '502 Bad Gateway',
    ],
    [
      'a page without a title: its words, without markup or scripts',
      '<!DOCTYPE html><body><script>var a = "<b>";</script><p>Service &amp; gateway\n  down</p></body>',
      'text/html; charset=utf-8',
      'Service & gateway down',
    ],
    ['markup sent as text/plain', '<html><body><h2>Oops</h2></body></html>', 'text/plain', 'Oops'],
  ])('reads an HTML error page as words: %s', async (_, body, contentType, said) => {
    await h.fault({ method: 'GET', status: 502, body, contentType });
    const e = await failure(h.client.getWorkspace(SEED.workspaces.pumpStation));
    expect(e.serviceMessage).toBe(said);
    expect(e.userMessage).toBe(
      `The service failed to answer through its gateway (HTTP 502); try again later: ${said}.`,
    );
  });
});

describe('getFlow feature detection', () => {
  it('reports unsupported when the route answers 404 without naming the flow, and remembers it', async () => {
    await h.fault({ method: 'GET', path: '/flows/', status: 404, message: 'Not Found', count: 1 });
    expect(await h.client.getFlow('1400000000000000001')).toEqual({ supported: false });
    expect(await h.client.getFlow('1400000000000000002')).toEqual({ supported: false });
    expect(await h.requests()).toHaveLength(1);
  });

  it('reports unsupported on 405', async () => {
    const client = named(
      createServiceClient({ baseUrl: h.emu.url, accountId: SEED.accountId, token: h.emu.token }),
    );
    await h.fault({ method: 'GET', path: '/flows/', status: 405, count: 1 });
    expect(await client.getFlow('1400000000000000001')).toEqual({ supported: false });
    await client.close();
  });
});

describe('precision of IDs the service sends as JSON numbers', () => {
  it('parses unquoted 19-digit integers as exact strings', () => {
    const parsed = parseJsonLossless(
      '{"id": 1353853719423311872, "n": 1.5e300, "small": 42, "s": "x\\"1353853719423311873", "a": [-1234567890123456789]}',
    ) as Record<string, unknown>;
    expect(parsed).toEqual({
      id: '1353853719423311872',
      n: 1.5e300,
      small: 42,
      s: 'x"1353853719423311873',
      a: ['-1234567890123456789'],
    });
  });

  it('the client returns such an ID as the exact string', async () => {
    await h.fault({
      method: 'GET',
      status: 200,
      body: '{"id": 1353853719423311872, "name": "numeric"}',
      count: 1,
    });
    const ws = await h.client.getWorkspace('1353853719423311872');
    expect(ws.id).toBe('1353853719423311872');
  });
});

describe('client configuration', () => {
  it('refuses a base URL that is not http(s) or carries credentials, without echoing it', () => {
    for (const baseUrl of ['not a url', 'ftp://host', 'http://user:pw-secret-123@127.0.0.1:1']) {
      let err: unknown;
      try {
        named(createServiceClient({ baseUrl, accountId: SEED.accountId, token: 't0ken-value' }));
      } catch (e) {
        err = e;
      }
      expect(err).toMatchObject({ kind: 'invalid-request' });
      expect((err as Error).message).not.toContain('pw-secret-123');
    }
  });
});

describe('unreadable success answers', () => {
  it('a created flow whose answer cannot be read says to check the Activity view, without retrying', async () => {
    await h.fault({ method: 'POST', status: 201, body: '<html>ok</html>', count: 1 });
    const e = await failure(h.client.startLiveModel({ name: 'go', model: SEED.models.pressureCommon }));
    expect(e).toMatchObject({ kind: 'outcome-unknown', status: 201 });
    expect(e.userMessage).toMatch(/an HTML page, not JSON.*Activity view/);
    expect(await h.requests()).toHaveLength(1);
  });

  it('a read whose record has no id is an error, not a crash', async () => {
    await h.fault({ method: 'GET', status: 200, body: '{"name":"no id"}', count: 1 });
    const e = await failure(h.client.getWorkspace(SEED.workspaces.sandbox));
    expect(e).toMatchObject({ kind: 'bad-response', status: 200 });
    expect(e.userMessage).toMatch(/cannot read its answer \(not a record with an id\); nothing was changed/);
  });
});
