import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Keyring, createLogger } from '@gw/platform';
import type { TestDb } from '@gw/testkit';
import { migrateGateway } from '../src/compose.js';
import { SpendWriter } from '../src/metering/spend-writer.js';
import { TraceWriter } from '../src/metering/traces/trace-writer.js';
import { SwitchableDb, testStores } from './helpers.js';
import { spendRecord } from './spend-record-fixture.js';

const logger = createLogger({ name: 'trace-writer-test', level: 'silent' });
const keyring = Keyring.fromHexKey('ef'.repeat(32));
const content = { request: { messages: [{ role: 'user', content: 'the secret plan' }] }, response: { text: 'ok' } };

const record = (index: number) =>
  spendRecord(index, {
    promptTokens: 10 + index,
    latencyMs: 13,
    optimizationStatus: 'applied',
    attribution: { session: 'sess-1', properties: { ticket: 'T-1' } },
  });

// A call's trace is derived from its spend row by the spend writer's insert; the trace writer adds sealed content.
describe.each(testStores)('traces (%s)', (_store, open) => {
  let isolated: TestDb;
  let db: SwitchableDb;
  const rows = async () =>
    (await isolated.db.query<Record<string, unknown>>('SELECT * FROM gw_traces ORDER BY id')).rows;
  const sealedOf = (row: Record<string, unknown> | undefined, id: string) =>
    JSON.parse(keyring.decryptString(String(row?.content_sealed), `trace:${id}`)) as unknown;

  beforeEach(async () => {
    isolated = await open();
    await migrateGateway(isolated.db);
    db = new SwitchableDb(isolated.db);
  });
  afterEach(async () => {
    await isolated.dispose();
  });

  it('are written with the calls’ spend rows (same id, the row’s metadata, no content), none for a batch line', async () => {
    const spend = new SpendWriter(db, logger);
    spend.enqueue(record(1), true);
    spend.enqueue(record(2), true);
    spend.enqueue(record(3), false);
    await spend.drain();
    const stored = await rows();
    expect(stored.map((row) => row.id)).toEqual(['rec-1', 'rec-2']);
    expect(stored[0]).toMatchObject({
      session_id: 'sess-1',
      user_id: 'ada@example.com',
      team: 'compilers',
      key_id: 'key_1',
      endpoint: '/v1/chat/completions',
      provider: 'openai',
      model: 'gpt-4.1',
      status: 200,
      latency_ms: 13,
      prompt_tokens: 11,
      completion_tokens: 5,
      optimization_status: 'applied',
      content_sealed: null,
    });
    expect(new Date(String(stored[0]?.created_at)).toISOString()).toBe(record(1).ts);
    expect(Number(stored[0]?.cost_usd)).toBe(0.00006);
  });

  it('are written once: a row written again (a retry, a replay) adds no trace and keeps its content', async () => {
    const spend = new SpendWriter(db, logger);
    const traces = new TraceWriter(db, logger, { keyring });
    spend.enqueue(record(1), true);
    await spend.drain();
    traces.write(record(1), content);
    await traces.drain();
    spend.enqueue(record(1), true);
    await spend.drain();
    const stored = await rows();
    expect(stored).toHaveLength(1);
    expect(sealedOf(stored[0], 'rec-1')).toEqual(content);
  });

  it('carry sealed content bound to the trace id, whichever writer comes first', async () => {
    const spend = new SpendWriter(db, logger);
    const traces = new TraceWriter(db, logger, { keyring });
    // rec-1: the row first, then the content; rec-2: the content first, then the row.
    spend.enqueue(record(1), true);
    await spend.drain();
    traces.write(record(1), content);
    traces.write(record(2), content);
    await traces.drain();
    spend.enqueue(record(2), true);
    await spend.drain();
    const [first, second] = await rows();
    for (const [row, id] of [
      [first, 'rec-1'],
      [second, 'rec-2'],
    ] as const) {
      expect(row).toMatchObject({ id, session_id: 'sess-1', user_id: 'ada@example.com', status: 200 });
      expect(sealedOf(row, id)).toEqual(content);
    }
    expect(() => keyring.decryptString(String(first?.content_sealed), 'trace:rec-2')).toThrow();
    expect(JSON.stringify(await rows())).not.toContain('the secret plan');
  });

  it('never put content back into a trace whose user was erased meanwhile', async () => {
    const spend = new SpendWriter(db, logger);
    const traces = new TraceWriter(db, logger, { keyring });
    spend.enqueue(record(1), true);
    await spend.drain();
    await isolated.db.query("UPDATE gw_traces SET user_id = 'erased-1', content_sealed = NULL WHERE id = 'rec-1'");
    traces.write(record(1), content);
    await traces.drain();
    expect(await rows()).toEqual([expect.objectContaining({ id: 'rec-1', user_id: 'erased-1', content_sealed: null })]);
  });

  it('write every other record’s content when the store refuses one record of a batch for its data', async () => {
    let dropped = 0;
    const traces = new TraceWriter(db, logger, { keyring, onDropped: (count) => void (dropped += count) });
    traces.write(record(1), content);
    traces.write({ ...record(2), promptTokens: 2 ** 40 }, content);
    traces.write(record(3), content);
    await traces.drain();
    expect((await rows()).map((row) => row.id)).toEqual(['rec-1', 'rec-3']);
    expect(dropped).toBe(1);
  });

  it('keep no content without a key, and drop and count content past the in-memory bound', async () => {
    let dropped = 0;
    const keyless = new TraceWriter(db, logger, { onDropped: (count) => void (dropped += count) });
    keyless.write(record(1), content);
    await keyless.drain();
    expect(await rows()).toEqual([]);
    expect(dropped).toBe(0);

    const bounded = new TraceWriter(db, logger, {
      keyring,
      maxBufferedContentChars: JSON.stringify(content).length,
      onDropped: (count) => void (dropped += count),
    });
    bounded.write(record(2), content);
    bounded.write(record(3), content);
    await bounded.drain();
    expect((await rows()).map((row) => row.id)).toEqual(['rec-2']);
    expect(dropped).toBe(1);
  });

  it('drop and count a content batch the store refuses, and never throw at the caller', async () => {
    let dropped = 0;
    const traces = new TraceWriter(db, logger, { keyring, onDropped: (count) => void (dropped += count) });
    db.down = true;
    expect(() => traces.write(record(1), content)).not.toThrow();
    traces.write(record(2), content);
    await traces.drain();
    expect(dropped).toBe(2);
    db.down = false;
    traces.write(record(3), content);
    await traces.drain();
    expect((await rows()).map((row) => row.id)).toEqual(['rec-3']);
  });
});
