import { describe, expect, it } from 'vitest';
import { ROUTES, type Route, routeFor } from '../../../standins/emulator/api.js';

/** Two operations on one resource, a method and a path shared: the emulator tells them apart by body. */
describe('the route that takes a request', () => {
  const move = ROUTES.find((r) => r.method === 'PUT' && r.pattern[0] === 'models')!;
  const rename: Route = {
    version: '1.3',
    method: 'PUT',
    pattern: ['models', ':id'],
    accepts: (body) => typeof body === 'object' && body !== null && 'name' in body,
    handle: () => ({ status: 200, body: { renamed: true } }),
  };
  const get: Route = { ...rename, method: 'GET', accepts: undefined };

  it('is the one whose body it is, whichever comes first', () => {
    for (const routes of [
      [move, rename, get],
      [rename, move, get],
    ]) {
      expect(routeFor(routes, 'PUT', { name: 'pump-3' })).toBe(rename);
      expect(routeFor(routes, 'PUT', { workspace: '1030000000000000002' })).toBe(move);
      expect(routeFor(routes, 'GET', undefined)).toBe(get);
    }
  });

  it("else the first with the method, whose checks say what is wrong with the body; none: a 405's", () => {
    expect(routeFor([move, rename], 'PUT', { colour: 'blue' })).toBe(move);
    expect(routeFor([move, rename], 'DELETE', undefined)).toBeUndefined();
  });
});
