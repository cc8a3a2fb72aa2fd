import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Keyring, type Db } from '@gw/platform';
import { createMemoryPgliteDb, type TestDb } from '@gw/testkit';
import { auth, chatRequest, contentKey, numberedLines, testApp, type TestApp } from './support/test-app.js';

let store: TestDb;
beforeAll(async () => {
  store = await createMemoryPgliteDb();
});
afterAll(async () => {
  await store.dispose();
});

async function stashed(
  harness: TestApp,
  content: string,
  metadata: Record<string, string> = { user: 'ada' },
  headers: Record<string, string> = auth,
): Promise<string> {
  const response = await harness.app.inject({
    method: 'POST',
    url: '/v1/optimize',
    headers,
    payload: { endpoint: '/v1/chat/completions', request: chatRequest(content), metadata },
  });
  expect(response.statusCode).toBe(200);
  const match = /ctx_[A-Za-z0-9_-]+/.exec(JSON.stringify(response.json().request));
  if (!match) throw new Error('no handle in the optimized request');
  return match[0];
}

function retrieve(harness: TestApp, body: Record<string, unknown>, headers: Record<string, string> = auth) {
  return harness.app.inject({ method: 'POST', url: '/v1/retrieve', headers, payload: body });
}

async function retrieveCount(harness: TestApp, result: string): Promise<string | undefined> {
  const metrics = (await harness.app.inject({ method: 'GET', url: '/metrics' })).body;
  return new RegExp(`gw_optimizer_retrieve_total\\{result="${result}"\\} (\\d+)`).exec(metrics)?.[1];
}

describe('POST /v1/retrieve', () => {
  it('returns the full original with its totals when only the handle is sent', async () => {
    const harness = await testApp({ db: store.db });
    const original = `${numberedLines(50, 'full')}\n`;
    const handle = await stashed(harness, original);
    const response = await retrieve(harness, { handle });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      handle,
      content: original,
      totalLines: 50,
      totalChars: original.length,
      partial: false,
      ageBucket: 'lt_1m',
    });
  });

  it('rounds and clamps a line range and reports the bounds searched', async () => {
    const harness = await testApp({ db: store.db });
    const original = numberedLines(40, 'range');
    const handle = await stashed(harness, original);
    const rounded = (await retrieve(harness, { handle, startLine: 2.6, endLine: 4.4 })).json();
    // A partial answer reports the stash totals, not the slice's.
    expect(rounded).toMatchObject({
      content: 'range 3\nrange 4',
      partial: true,
      startLine: 3,
      endLine: 4,
      totalLines: 40,
      totalChars: original.length,
    });
    const clamped = (await retrieve(harness, { handle, startLine: -7, endLine: 3 })).json();
    expect(clamped).toMatchObject({ content: 'range 1\nrange 2\nrange 3', startLine: 1, endLine: 3 });
    const pastEnd = (await retrieve(harness, { handle, startLine: 39, endLine: 10_000 })).json();
    expect(pastEnd).toMatchObject({ content: 'range 39\nrange 40', startLine: 39, endLine: 40, partial: true });
    const inverted = await retrieve(harness, { handle, startLine: 90, endLine: 2 });
    expect(inverted.statusCode).toBe(200);
    expect(inverted.json()).toMatchObject({ content: 'range 40', startLine: 40, endLine: 40 });
    const whole = (await retrieve(harness, { handle, startLine: 0, endLine: 99 })).json();
    expect(whole.partial).toBe(false);
  });

  it('greps a case-insensitive literal with three lines of context, merged windows and line numbers', async () => {
    const harness = await testApp({ db: store.db });
    const lines = numberedLines(30, 'ok').split('\n');
    lines[9] = 'FAIL test/(a+b).spec.ts';
    lines[11] = 'fail again in test/(A+B).SPEC.ts';
    lines[25] = 'unrelated (a+b) but no verb';
    const handle = await stashed(harness, lines.join('\n'));
    const response = (await retrieve(harness, { handle, grep: 'FAIL' })).json();
    expect(response).toMatchObject({
      partial: true,
      startLine: 1,
      endLine: 30,
      grepMatches: 2,
      grepTruncated: false,
      totalLines: 30,
    });
    expect(response.content).toBe(
      [
        '7-ok 7',
        '8-ok 8',
        '9-ok 9',
        '10:FAIL test/(a+b).spec.ts',
        '11-ok 11',
        '12:fail again in test/(A+B).SPEC.ts',
        '13-ok 13',
        '14-ok 14',
        '15-ok 15',
      ].join('\n'),
    );
    // A literal, not a regex: parentheses and plus signs match themselves.
    const literal = (await retrieve(harness, { handle, grep: '(a+b).spec' })).json();
    expect(literal.grepMatches).toBe(2);
  });

  it('renders only the first 20 windows but counts every match', async () => {
    const harness = await testApp({ db: store.db });
    const lines = Array.from({ length: 400 }, (_, index) =>
      index % 10 === 0 ? `Error: boom ${index + 1}` : `fine ${index + 1}`,
    );
    const handle = await stashed(harness, lines.join('\n'));
    const response = (await retrieve(harness, { handle, grep: 'error:' })).json();
    expect(response.grepMatches).toBe(40);
    expect(response.grepTruncated).toBe(true);
    expect(response.content.split('\n--\n')).toHaveLength(20);
    expect(response.content).toContain('191:Error: boom 191');
    expect(response.content).not.toContain('Error: boom 201');
    expect(response.nextStartLine).toBe(201);
  });

  it('answers a grep matching nearly every line of a 3,000-line log with 20 matches and the next startLine', async () => {
    const harness = await testApp({ db: store.db });
    const log = [
      ...Array.from({ length: 2_999 }, (_, index) => `ok ${index + 1} - test_case_${index + 1}`),
      '# pass 2999',
    ].join('\n');
    const handle = await stashed(harness, log);
    const response = (await retrieve(harness, { handle, grep: 'test_case_' })).json();
    expect(response).toMatchObject({
      partial: true,
      grepMatches: 2_999,
      grepTruncated: true,
      nextStartLine: 21,
      totalLines: 3_000,
    });
    expect(response.content.split('\n')).toHaveLength(23);
    const next = (await retrieve(harness, { handle, grep: 'test_case_', startLine: response.nextStartLine })).json();
    expect(next.content.split('\n')[0]).toBe('21:ok 21 - test_case_21');
  });

  it('greps within the requested range only', async () => {
    const harness = await testApp({ db: store.db });
    const lines = Array.from({ length: 100 }, (_, index) => `needle ${index + 1}`);
    const handle = await stashed(harness, lines.join('\n'));
    const response = (await retrieve(harness, { handle, grep: 'needle', startLine: 50, endLine: 52 })).json();
    expect(response).toMatchObject({
      startLine: 50,
      endLine: 52,
      grepMatches: 3,
      content: '50:needle 50\n51:needle 51\n52:needle 52',
    });
  });

  it('takes line bounds as numeric strings, treats null and non-numbers as absent and clamps infinities, never a 400', async () => {
    const harness = await testApp({ db: store.db });
    const handle = await stashed(harness, numberedLines(40, 'bound'));
    const raw = (body: string) =>
      harness.app.inject({
        method: 'POST',
        url: '/v1/retrieve',
        headers: { ...auth, 'content-type': 'application/json' },
        payload: body,
      });
    const strings = await retrieve(harness, { handle, startLine: '3', endLine: ' 4.4 ' });
    expect(strings.statusCode).toBe(200);
    expect(strings.json()).toMatchObject({ content: 'bound 3\nbound 4', startLine: 3, endLine: 4, partial: true });
    const absent = await retrieve(harness, { handle, startLine: null, endLine: 'soon' });
    expect(absent.statusCode).toBe(200);
    expect(absent.json()).toMatchObject({ partial: false, totalLines: 40 });
    // JSON.parse reads 1e400 as Infinity.
    const infinite = await raw(`{"handle":"${handle}","startLine":39,"endLine":1e400}`);
    expect(infinite.statusCode).toBe(200);
    expect(infinite.json()).toMatchObject({ content: 'bound 39\nbound 40', startLine: 39, endLine: 40 });
    const negative = await raw(`{"handle":"${handle}","startLine":-1e400,"endLine":"2"}`);
    expect(negative.json()).toMatchObject({ content: 'bound 1\nbound 2', startLine: 1, endLine: 2 });
    const grepped = await retrieve(harness, { handle, grep: 'bound 4', startLine: '10', endLine: true });
    expect(grepped.json()).toMatchObject({ startLine: 10, endLine: 40, grepMatches: 1 });
  });

  it('counts grep length in characters, so 256 emoji are within the limit', async () => {
    const harness = await testApp({ db: store.db });
    const handle = await stashed(harness, numberedLines(30, 'emoji'));
    const within = await retrieve(harness, { handle, grep: '🔥'.repeat(256) });
    expect(within.statusCode).toBe(200);
    expect(within.json()).toMatchObject({ partial: true, grepMatches: 0 });
    const over = await retrieve(harness, { handle, grep: '🔥'.repeat(257) });
    expect(over.statusCode).toBe(400);
    expect(over.json().error.code).toBe('invalid_grep');
  });

  it('answers 400 for a whitespace-only or over-256-character grep', async () => {
    const harness = await testApp({ db: store.db });
    const handle = await stashed(harness, numberedLines(30, 'grep'));
    for (const grep of ['   ', '\t\n', 'x'.repeat(257)]) {
      const response = await retrieve(harness, { handle, grep });
      expect(response.statusCode).toBe(400);
      expect(response.json().error.code).toBe('invalid_grep');
    }
    expect((await retrieve(harness, { handle, grep: ' grep 1' })).statusCode).toBe(200);
    expect((await retrieve(harness, { handle, grep: 'g'.repeat(256) })).statusCode).toBe(200);
  });

  it('answers 404 for an unknown, malformed or expired handle', async () => {
    const harness = await testApp({ db: store.db });
    expect((await retrieve(harness, { handle: 'ctx_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' })).statusCode).toBe(404);
    expect((await retrieve(harness, { handle: 'not-a-handle' })).json().error.code).toBe('handle_not_found');
    const handle = await stashed(harness, numberedLines(30, 'expiry'));
    harness.clock.advance(4 * 3_600_000 + 1);
    expect((await retrieve(harness, { handle })).statusCode).toBe(404);
  });

  it('extends life by 30 minutes per retrieve in both tiers', async () => {
    const harness = await testApp({ db: store.db });
    const handle = await stashed(harness, numberedLines(30, 'extend'));
    harness.clock.advance(3 * 3_600_000 + 59 * 60_000);
    expect((await retrieve(harness, { handle })).statusCode).toBe(200);
    // A fresh replica (empty memory tier, same durable store) sees the extension too.
    const replica = await testApp({ db: store.db, clock: harness.clock });
    harness.clock.advance(30 * 60_000);
    expect((await retrieve(replica, { handle })).statusCode).toBe(200);
    harness.clock.advance(31 * 60_000);
    expect((await retrieve(harness, { handle })).statusCode).toBe(404);
  });

  it('never serves past the absolute 48-hour ceiling however often it is read', async () => {
    const harness = await testApp({ db: store.db });
    const handle = await stashed(harness, numberedLines(30, 'ceiling'));
    const buckets = new Set<string>();
    let elapsed = 0;
    while (elapsed + 25 * 60_000 < 48 * 3_600_000) {
      harness.clock.advance(25 * 60_000);
      elapsed += 25 * 60_000;
      const response = await retrieve(harness, { handle });
      expect(response.statusCode).toBe(200);
      buckets.add(response.json().ageBucket);
    }
    expect([...buckets]).toEqual(['lt_30m', 'lt_2h', 'lt_4h', 'lt_12h', 'lt_24h', 'lt_48h']);
    harness.clock.advance(48 * 3_600_000 - elapsed);
    expect((await retrieve(harness, { handle })).statusCode).toBe(404);
    const replica = await testApp({ db: store.db, clock: harness.clock });
    expect((await retrieve(replica, { handle })).statusCode).toBe(404);
  });

  it("finds a user's handle only for that user: another user's retrieve is the 404 of an unknown handle", async () => {
    const harness = await testApp({ db: store.db });
    const handle = await stashed(harness, numberedLines(30, 'alice'), { user: 'alice', team: 'core' });
    const unknown = await retrieve(harness, {
      handle: 'ctx_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
      metadata: { user: 'bob', team: 'core' },
    });
    const bob = await retrieve(harness, { handle, metadata: { user: 'bob', team: 'core' } });
    expect(bob.statusCode).toBe(404);
    expect(bob.json()).toEqual(unknown.json());
    expect(bob.json().error.code).toBe('handle_not_found');
    expect(await retrieveCount(harness, 'miss')).toBe('2');
    const alice = await retrieve(harness, { handle, metadata: { user: 'alice', team: 'core' } });
    expect(alice.statusCode).toBe(200);
    expect(alice.json().content).toBe(numberedLines(30, 'alice'));
    // The owner's team alone is not the owner.
    expect((await retrieve(harness, { handle, metadata: { team: 'core' } })).statusCode).toBe(404);
  });

  it('finds a handle stashed without a user only for a caller of that team who names no user', async () => {
    const harness = await testApp({ db: store.db });
    const handle = await stashed(harness, numberedLines(30, 'team'), { team: 'core' });
    expect((await retrieve(harness, { handle, metadata: { team: 'core' } })).statusCode).toBe(200);
    expect((await retrieve(harness, { handle, metadata: { user: 'alice', team: 'core' } })).json().error.code).toBe(
      'handle_not_found',
    );
    expect((await retrieve(harness, { handle, metadata: { team: 'ops' } })).statusCode).toBe(404);
  });

  it('answers 404 when the tenant the retrieve names is not the handle’s', async () => {
    const harness = await testApp({ db: store.db });
    const handle = await stashed(harness, numberedLines(30, 'tenant'), { user: 'alice' });
    expect((await retrieve(harness, { handle, metadata: { user: 'alice', tenant: 'acme' } })).statusCode).toBe(404);
    expect((await retrieve(harness, { handle, metadata: { tenant: 'acme' } })).statusCode).toBe(404);
    expect((await retrieve(harness, { handle, metadata: { user: 'alice', tenant: 'default' } })).statusCode).toBe(200);
  });

  it('trusts the shared bearer when the retrieve names nobody, as older gateways send it', async () => {
    const harness = await testApp({ db: store.db });
    const handle = await stashed(harness, numberedLines(30, 'legacy'), { user: 'alice' });
    expect((await retrieve(harness, { handle })).statusCode).toBe(200);
    expect((await retrieve(harness, { handle, metadata: { source: 'splice' } })).statusCode).toBe(200);
  });

  it('keeps a per-tenant bearer to its tenant and applies the named caller within it', async () => {
    const tenantToken = 'acme-tenant-token-0123456789';
    const harness = await testApp({
      db: store.db,
      config: { GW_OPTIMIZER_TENANT_TOKENS: [{ tenant: 'acme', token: tenantToken }] },
    });
    const acme = { authorization: `Bearer ${tenantToken}` };
    const acmeHandle = await stashed(harness, numberedLines(30, 'acme'), { user: 'alice', tenant: 'globex' }, acme);
    const defaultHandle = await stashed(harness, numberedLines(30, 'default'), { user: 'alice' });
    expect((await retrieve(harness, { handle: acmeHandle }, acme)).statusCode).toBe(200);
    expect((await retrieve(harness, { handle: defaultHandle }, acme)).statusCode).toBe(404);
    // The bearer's tenant beats the one named; the user named still has to be the owner.
    expect(
      (await retrieve(harness, { handle: acmeHandle, metadata: { user: 'alice', tenant: 'globex' } }, acme)).statusCode,
    ).toBe(200);
    expect((await retrieve(harness, { handle: acmeHandle, metadata: { user: 'bob' } }, acme)).statusCode).toBe(404);
  });

  it("neither extends the life of another caller's handle nor reads it past its window", async () => {
    const harness = await testApp({ db: store.db });
    const handle = await stashed(harness, numberedLines(30, 'no-extend'), { user: 'alice' });
    harness.clock.advance(3 * 3_600_000 + 59 * 60_000);
    expect((await retrieve(harness, { handle, metadata: { user: 'bob' } })).statusCode).toBe(404);
    harness.clock.advance(2 * 60_000);
    expect((await retrieve(harness, { handle, metadata: { user: 'alice' } })).statusCode).toBe(404);
    const replica = await testApp({ db: store.db, clock: harness.clock });
    expect((await retrieve(replica, { handle, metadata: { user: 'alice' } })).statusCode).toBe(404);
  });

  it("refuses another caller's handle without decrypting its row, with the 404 of an unknown handle", async () => {
    const tenantToken = 'acme-tenant-token-0123456789';
    const config = { GW_OPTIMIZER_TENANT_TOKENS: [{ tenant: 'acme', token: tenantToken }] };
    const harness = await testApp({ db: store.db, config });
    const handle = await stashed(harness, numberedLines(30, 'undecrypted'), { user: 'alice' });
    // A fresh replica: the handle is only in the durable tier, where reading it means decrypting its row.
    const replica = await testApp({ db: store.db, clock: harness.clock, config });
    const decrypt = vi.spyOn(Keyring.prototype, 'decryptString');
    try {
      const unknown = await retrieve(replica, {
        handle: 'ctx_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
        metadata: { user: 'bob' },
      });
      const bob = await retrieve(replica, { handle, metadata: { user: 'bob' } });
      const acme = await retrieve(replica, { handle }, { authorization: `Bearer ${tenantToken}` });
      expect(bob.statusCode).toBe(404);
      expect(bob.json()).toEqual(unknown.json());
      expect(acme.json()).toEqual(unknown.json());
      expect(decrypt).not.toHaveBeenCalled();
      expect(await retrieveCount(replica, 'miss')).toBe('3');
      expect((await retrieve(replica, { handle, metadata: { user: 'alice' } })).statusCode).toBe(200);
      expect(decrypt).toHaveBeenCalledTimes(1);
    } finally {
      decrypt.mockRestore();
    }
  });

  it("answers another caller's undecryptable row with 404, never the 503 that would reveal it", async () => {
    const harness = await testApp({ db: store.db });
    const handle = await stashed(harness, numberedLines(30, 'rekeyed-owner'), { user: 'alice' });
    const rekeyed = await testApp({ db: store.db, config: { GW_CONTENT_KEY: 'b3'.repeat(32) } });
    expect((await retrieve(rekeyed, { handle, metadata: { user: 'bob' } })).json().error.code).toBe('handle_not_found');
    expect((await retrieve(rekeyed, { handle, metadata: { user: 'alice' } })).json().error.code).toBe('row_unreadable');
  });

  it('answers 503 when the durable store is down, distinct from a miss', async () => {
    const harness = await testApp({ db: store.db });
    const handle = await stashed(harness, numberedLines(30, 'outage'));
    const broken: Db = {
      kind: 'pg',
      query: () => Promise.reject(new Error('connection refused')),
      transaction: () => Promise.reject(new Error('connection refused')),
      ping: async () => false,
      exec: async () => undefined,
      close: async () => undefined,
    };
    const replica = await testApp({ clock: harness.clock, durable: { db: broken, source: 'env' } });
    const response = await retrieve(replica, { handle });
    expect(response.statusCode).toBe(503);
    expect(response.json().error.code).toBe('store_unavailable');
  });

  it('answers 503 when the row does not decrypt under the configured key', async () => {
    const harness = await testApp({ db: store.db });
    const handle = await stashed(harness, numberedLines(30, 'rekeyed'));
    const rekeyed = await testApp({ db: store.db, config: { GW_CONTENT_KEY: 'b2'.repeat(32) } });
    const response = await retrieve(rekeyed, { handle });
    expect(response.statusCode).toBe(503);
    expect(response.json().error.code).toBe('row_unreadable');
    expect(contentKey).not.toBe('b2'.repeat(32));
  });
});
