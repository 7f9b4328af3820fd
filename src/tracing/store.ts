import { inSpan, tracingOn } from './trace.js';

/**
 * The store as the bot sees it, with tracing on: each of its calls made for a request (or a flow's or a
 * schedule's round) is a `store.<method>` span of that trace, named by the method alone (`store.writeAudit`),
 * never by what it reads or writes. Off, the store itself.
 */
export function tracedStore<S extends { kind: string }>(store: S): S {
  if (!tracingOn()) return store;
  const system = store.kind === 'postgres' ? 'postgresql' : store.kind;
  const wrapped = new Map<PropertyKey, unknown>();
  return new Proxy(store, {
    get(target, key, receiver) {
      const value: unknown = Reflect.get(target, key, receiver);
      if (typeof value !== 'function' || typeof key !== 'string') return value;
      let traced = wrapped.get(key);
      if (!traced) {
        const method = value as (...args: unknown[]) => unknown;
        traced = (...args: unknown[]) =>
          inSpan(
            `store.${key}`,
            { 'db.system.name': system, 'db.operation.name': key },
            () => method.apply(target, args),
            { kind: 'client', inTraceOnly: true },
          );
        wrapped.set(key, traced);
      }
      return traced;
    },
  });
}
