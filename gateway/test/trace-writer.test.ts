import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Keyring, createLogger } from '@gw/platform';
import { createIsolatedPgDb, testDbUrl, type TestDb } from '@gw/testkit';
import { migrateGateway } from '../src/compose.js';
import type { SpendRecord } from '../src/metering/spend-record.js';
import { TraceWriter } from '../src/metering/traces/trace-writer.js';
import { SwitchableDb } from './helpers.js';

const logger = createLogger({ name: 'trace-writer-test', level: 'silent' });
const keyring = Keyring.fromHexKey('ef'.repeat(32));

function record(index: number): SpendRecord {
  return {
    id: `rec-${index}`,
    ts: new Date(Date.UTC(2026, 10, 23, 12, 0, index)).toISOString(),
    endpoint: '/v1/chat/completions',
    method: 'POST',
    status: 200,
    outcome: 'success',
    provider: 'openai',
    model: 'gpt-4.1',
    reasoningEffort: null,
    promptTokens: 10 + index,
    completionTokens: 5,
    totalTokens: 15 + index,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
    reasoningTokens: 0,
    latencyMs: 12.6,
    upstreamLatencyMs: 10,
    costUsd: 0.00006,
    savingsUsd: 0,
    tokensSaved: 0,
    billingMode: 'api-key',
    user: 'ada@example.com',
    team: 'compilers',
    keyId: 'key_1',
    keyType: 'client',
    stream: false,
    optimizationStatus: 'applied',
    optimizationReason: null,
    optimizerLatencyMs: 3,
    attempts: 1,
    target: 'openai:gpt-4.1',
    errorCode: null,
    traceId: `trace-${index}`,
    attribution: { session: 'sess-1' },
  };
}

describe('trace writer', () => {
  let isolated: TestDb;
  let db: SwitchableDb;
  const rows = async () =>
    (await isolated.db.query<Record<string, unknown>>('SELECT * FROM gw_traces ORDER BY id')).rows;

  beforeEach(async () => {
    isolated = await createIsolatedPgDb(testDbUrl(process.env));
    await migrateGateway(isolated.db);
    db = new SwitchableDb(isolated.db);
  });
  afterEach(async () => {
    await isolated.dispose();
  });

  it('writes each trace with its spend row id and metadata, in one batch', async () => {
    const writer = new TraceWriter(db, logger);
    for (let index = 1; index <= 3; index += 1) writer.write(record(index));
    await writer.drain();
    const stored = await rows();
    expect(stored.map((row) => row.id)).toEqual(['rec-1', 'rec-2', 'rec-3']);
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
  });

  it('drops and counts a batch the store refuses, and never throws at the caller', async () => {
    let dropped = 0;
    const writer = new TraceWriter(db, logger, { onDropped: (count) => void (dropped += count) });
    db.down = true;
    expect(() => writer.write(record(1))).not.toThrow();
    writer.write(record(2));
    await writer.drain();
    expect(dropped).toBe(2);
    db.down = false;
    writer.write(record(3));
    await writer.drain();
    expect((await rows()).map((row) => row.id)).toEqual(['rec-3']);
  });

  it('seals content under the key, bound to the trace id, only with a key and within the in-memory bound', async () => {
    const content = { request: { messages: [{ role: 'user', content: 'the secret plan' }] }, response: { text: 'ok' } };
    const sealing = new TraceWriter(db, logger, { keyring, maxBufferedContentChars: JSON.stringify(content).length });
    sealing.write(record(1), content);
    sealing.write(record(2), content);
    await sealing.drain();
    const keyless = new TraceWriter(db, logger);
    keyless.write(record(3), content);
    await keyless.drain();
    const [first, second, third] = await rows();
    expect(JSON.parse(keyring.decryptString(String(first?.content_sealed), 'trace:rec-1'))).toEqual(content);
    expect(() => keyring.decryptString(String(first?.content_sealed), 'trace:rec-2')).toThrow();
    expect(second?.content_sealed).toBeNull();
    expect(third?.content_sealed).toBeNull();
    expect(JSON.stringify(await rows())).not.toContain('the secret plan');
  });
});
