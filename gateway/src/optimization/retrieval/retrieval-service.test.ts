import { describe, expect, it } from 'vitest';
import { OptimizerCallError } from '../hook/optimizer-client.js';
import { classifyFailure } from './retrieval-service.js';

describe('classifyFailure', () => {
  const status = (code: number) => new OptimizerCallError('status', code, `answered ${code}`);
  it.each([
    [status(404), false, 'not_found'],
    [status(404), true, 'not_found'],
    [status(503), false, 'unavailable'],
    [status(503), true, 'unavailable'],
    [status(401), false, 'unavailable'],
    [status(400), false, 'unavailable'],
    // An older optimizer refusing the slice fields, or answering without the slice-aware shape.
    [status(400), true, 'slice_unsupported'],
    [status(422), true, 'slice_unsupported'],
    [new OptimizerCallError('malformed', 200, 'outside the protocol'), true, 'slice_unsupported'],
    [new OptimizerCallError('malformed', 200, 'outside the protocol'), false, 'unavailable'],
    [new OptimizerCallError('timeout', null, 'slow'), true, 'unavailable'],
    [new OptimizerCallError('unreachable', null, 'down'), false, 'unavailable'],
    [new Error('boom'), true, 'unavailable'],
  ] as const)('%s (slice: %s) → %s', (error, sliced, expected) => {
    expect(classifyFailure(error, sliced)).toBe(expected);
  });
});
