import { describe, expect, it } from 'vitest';
import { ServiceError } from '../../src/api/index.js';
import { classifyExecutionError } from '../../src/core/live-client.js';

describe('classifyExecutionError', () => {
  it('only errors that prove nothing was created are definitive', () => {
    const msg = 'shown to users';
    expect(classifyExecutionError(new ServiceError('http', msg, { status: 500 }))).toEqual({
      definitive: true,
      message: msg,
    });
    expect(classifyExecutionError(new ServiceError('network', msg))).toEqual({
      definitive: true,
      message: msg,
    });
    expect(classifyExecutionError(new ServiceError('outcome-unknown', msg))).toEqual({
      definitive: false,
      message: msg,
    });
    expect(classifyExecutionError(new ServiceError('timeout', msg))).toEqual({
      definitive: false,
      message: msg,
    });
    const odd = classifyExecutionError(new TypeError('internal detail xoxb-secret'));
    expect(odd.definitive).toBe(false);
    expect(odd.message).not.toContain('xoxb-secret');
  });
});
