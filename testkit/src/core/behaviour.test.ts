import { describe, expect, it } from 'vitest';
import { BehaviourScript, rateLimited } from './behaviour.js';
import type { RecordedRequest } from './request-log.js';

const request = (model: string): RecordedRequest => ({
  method: 'POST',
  path: '/',
  url: '/',
  query: {},
  headers: {},
  body: '',
  json: { model },
  receivedAt: 0,
});

describe('BehaviourScript', () => {
  it('consumes queued behaviours one per request, in order', () => {
    const script = new BehaviourScript();
    script.enqueue({ status: 500 }, { status: 502 });
    script.failNext(1, { status: 503 });
    expect([1, 2, 3, 4].map(() => script.take(request('m'))?.status)).toEqual([500, 502, 503, undefined]);
  });

  it('checks rules before the queue, honours their count and removal', () => {
    const script = new BehaviourScript();
    script.enqueue({ status: 500 });
    const remove = script.respondWhen(
      (candidate) => (candidate.json as { model: string }).model === 'bad',
      { status: 529 },
      2,
    );
    expect(script.take(request('bad'))?.status).toBe(529);
    expect(script.take(request('bad'))?.status).toBe(529);
    expect(script.take(request('bad'))?.status).toBe(500);
    const always = script.respondWhen(() => true, { status: 418 });
    expect(script.take(request('x'))?.status).toBe(418);
    always();
    remove();
    expect(script.take(request('x'))).toBeUndefined();
  });
});

describe('rateLimited', () => {
  it('sets both retry headers, rounding seconds up', () => {
    expect(rateLimited({ retryAfterMs: 1500 })).toEqual({
      status: 429,
      headers: { 'retry-after': '2', 'retry-after-ms': '1500' },
    });
    expect(rateLimited({ retryAfterSeconds: 3 })).toEqual({ status: 429, headers: { 'retry-after': '3' } });
  });
});
