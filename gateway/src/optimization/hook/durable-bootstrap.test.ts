import { createLogger } from '@gw/platform';
import { describe, expect, it } from 'vitest';
import { DurableBootstrap } from './durable-bootstrap.js';

const logger = createLogger({ name: 'durable-bootstrap-test', level: 'silent' });

function optimizerAnswering(...answers: Array<{ status: number; body: unknown } | Error>) {
  const calls: Array<{ method: string; path: string; adminToken: string; body: unknown }> = [];
  return {
    calls,
    raw: async (method: 'GET' | 'PUT' | 'POST', path: string, adminToken: string, body?: unknown) => {
      calls.push({ method, path, adminToken, body });
      const answer = answers.shift() ?? new Error('no more answers');
      if (answer instanceof Error) throw answer;
      return answer;
    },
  };
}

describe('DurableBootstrap', () => {
  const options = {
    adminToken: 'admin-token-0123456789',
    spendDbUrl: 'postgres://gw@db:5432/gw',
    contentKey: 'ab'.repeat(32),
    contentMode: () => 'full',
    logger,
  };

  it("pushes the store, the content key and the content mode with the optimizer's admin bearer", async () => {
    const optimizer = optimizerAnswering({ status: 200, body: { durable: true } });
    const bootstrap = new DurableBootstrap({ ...options, optimizer });
    expect(bootstrap.state()).toBe('pending');
    expect(await bootstrap.push()).toBe('durable');
    expect(optimizer.calls).toEqual([
      {
        method: 'POST',
        path: '/admin/optimizer/bootstrap-durable',
        adminToken: 'admin-token-0123456789',
        body: {
          spendDbUrl: 'postgres://gw@db:5432/gw',
          contentKey: 'ab'.repeat(32),
          contentMode: 'full',
          allowPlaintext: 'false',
        },
      },
    ]);
  });

  it('sends no content key the gateway does not have, and reads the content mode at each push', async () => {
    let mode = 'full';
    const optimizer = optimizerAnswering(
      { status: 200, body: { durable: false } },
      { status: 200, body: { durable: true } },
    );
    const bootstrap = new DurableBootstrap({ ...options, contentKey: undefined, contentMode: () => mode, optimizer });
    expect(await bootstrap.push()).toBe('not_durable');
    mode = 'off';
    expect(await bootstrap.push()).toBe('durable');
    expect(optimizer.calls.map((call) => call.body)).toEqual([
      { spendDbUrl: options.spendDbUrl, contentMode: 'full', allowPlaintext: 'false' },
      { spendDbUrl: options.spendDbUrl, contentMode: 'off', allowPlaintext: 'false' },
    ]);
  });

  it('never throws: a refusal or an unreachable optimizer is a state, retried at the next heartbeat', async () => {
    const optimizer = optimizerAnswering(
      { status: 401, body: { error: { code: 'unauthorized' } } },
      new Error('ECONNREFUSED'),
      { status: 200, body: { durable: true } },
    );
    const bootstrap = new DurableBootstrap({ ...options, optimizer });
    expect(await bootstrap.push()).toBe('failed');
    expect(await bootstrap.push()).toBe('failed');
    expect(await bootstrap.push()).toBe('durable');
  });
});
