import { EventEmitter } from 'node:events';
import type { FastifyReply } from 'fastify';
import { Lifecycle } from '@gw/platform';
import { describe, expect, it } from 'vitest';
import { abortCauseOf, abortedCallError, callSignal } from './call-signal.js';

/** Just what `callSignal` reads of a reply: its response's close event and whether it finished. */
function fakeReply(): { reply: FastifyReply; close(finished: boolean): void } {
  const raw = Object.assign(new EventEmitter(), { writableFinished: false });
  return {
    reply: { raw } as unknown as FastifyReply,
    close: (finished) => {
      raw.writableFinished = finished;
      raw.emit('close');
    },
  };
}

describe('callSignal', () => {
  it('aborts with client_closed when the client leaves before the response finished, and not after', () => {
    const left = fakeReply();
    const signal = callSignal(left.reply);
    left.close(false);
    expect(abortCauseOf(signal)).toBe('client_closed');

    const served = fakeReply();
    const done = callSignal(served.reply);
    served.close(true);
    expect(done.aborted).toBe(false);
    expect(abortCauseOf(done)).toBeNull();
  });

  it('aborts every running call with gateway_draining at the drain deadline', () => {
    const lifecycle = new Lifecycle();
    const calls = Array.from({ length: 200 }, () => fakeReply());
    const signals = calls.map((call) => callSignal(call.reply, lifecycle.drainDeadline));
    // A call that already finished stops listening.
    calls[0]?.close(true);
    (lifecycle as unknown as { deadline: AbortController }).deadline.abort();
    expect(signals[0]?.aborted).toBe(false);
    expect(signals.slice(1).every((signal) => abortCauseOf(signal) === 'gateway_draining')).toBe(true);
    // A call that starts after the deadline is cut at once.
    expect(abortCauseOf(callSignal(fakeReply().reply, lifecycle.drainDeadline))).toBe('gateway_draining');
  });

  it('turns each cause into the answer its client should get', () => {
    expect(abortedCallError('client_closed')).toMatchObject({ status: 499, code: 'client_closed' });
    const draining = abortedCallError('gateway_draining');
    expect(draining).toMatchObject({ status: 503, code: 'gateway_draining', retryable: true });
    expect(draining.headers).toMatchObject({ 'retry-after': '1', 'x-should-retry': 'true' });
  });
});
