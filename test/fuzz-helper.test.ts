import { describe, expect, it } from 'vitest';
import { REGISTRY } from '../src/core/operations/registry/index.js';
import { type LoggedRequest, SEED } from '../standins/emulator/index.js';
import { modelRename } from './support/added-operations.js';
import { wireProblem } from './support/fuzz.js';

/**
 * The fuzz test's judge of what reached the service holds for every shape of operation: a request is
 * well formed when the call of any entry that shares its method and path takes it.
 */

const put = (body: unknown): LoggedRequest =>
  ({
    seq: 1,
    receivedAt: 0,
    method: 'PUT',
    path: `/api/1.3/accounts/${SEED.accountId}/models/${SEED.models.temperatureAnomaly}`,
    query: {},
    body,
    contentType: 'application/json',
    user: 'tsai-bot',
  }) as LoggedRequest;

describe('wireProblem with two operations on one method and path', () => {
  const entries = [...REGISTRY, modelRename];

  it("takes a body either call's schema takes: a move's and a rename's", async () => {
    expect(await wireProblem(put({ workspace: SEED.workspaces.sandbox }), entries)).toBeUndefined();
    expect(await wireProblem(put({ name: 'pump-3 baseline' }), entries)).toBeUndefined();
  });

  it('refuses a body neither takes, naming why', async () => {
    expect(await wireProblem(put({ colour: 'blue' }), entries)).toMatch(/breaks the schema/);
    // Without the rename, its body is not the API's.
    expect(await wireProblem(put({ name: 'pump-3 baseline' }))).toMatch(/breaks the schema/);
  });
});
