import { readFile } from 'node:fs/promises';
import { createIsolatedPgDb, testDbUrl, type TestDb } from '@gw/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SqlSpendAppender } from '../src/record/spend-appender.js';

// The gateway owns gw_spend; this test creates it from the gateway's migration file, as a shared database would have it.
const spendMigration = new URL('../../gateway/migrations/003_spend.sql', import.meta.url);

describe('SqlSpendAppender', () => {
  let store: TestDb;
  beforeEach(async () => {
    store = await createIsolatedPgDb(testDbUrl(process.env));
  });
  afterEach(async () => {
    await store.dispose();
  });

  const record = {
    id: 'call-1',
    endpoint: '/v1/chat/completions',
    status: 200,
    model: 'gpt-4.1',
    provider: 'openai',
    promptTokens: 100,
    completionTokens: 20,
    durationMs: 812.4,
    attribution: { user: 'ada@example.com', team: 'core', sessionId: 's-1' },
    decisions: [{ kind: 'elide_tool_output', estimatedTokensSaved: 40 }],
  };

  it('writes nothing until the gateway created the spend table', async () => {
    const appender = new SqlSpendAppender(store.db);
    await appender.append(record, new Date('2026-11-23T00:00:00Z'));
    await store.db.exec(await readFile(spendMigration, 'utf8'));
    await appender.append(record, new Date('2026-11-23T00:00:00Z'));
    const { rows } = await store.db.query(
      'SELECT id, endpoint, status, outcome, provider, model, prompt_tokens, completion_tokens, total_tokens, latency_ms, tokens_saved, user_id, team, attribution FROM gw_spend',
    );
    expect(rows).toEqual([
      {
        id: 'rec_call-1',
        endpoint: '/v1/chat/completions',
        status: 200,
        outcome: 'success',
        provider: 'openai',
        model: 'gpt-4.1',
        prompt_tokens: 100,
        completion_tokens: 20,
        total_tokens: 120,
        latency_ms: 812,
        tokens_saved: 40,
        user_id: 'ada@example.com',
        team: 'core',
        attribution: { session: 's-1', source: 'optimizer-record' },
      },
    ]);
  });

  it('never counts a retried record twice', async () => {
    await store.db.exec(await readFile(spendMigration, 'utf8'));
    const appender = new SqlSpendAppender(store.db);
    await appender.append(record, new Date());
    await appender.append(record, new Date());
    const { rows } = await store.db.query<{ n: number }>('SELECT count(*)::int AS n FROM gw_spend');
    expect(rows[0]?.n).toBe(1);
  });

  it('caps the sums it derives at what the integer columns hold', async () => {
    await store.db.exec(await readFile(spendMigration, 'utf8'));
    const largest = 2_147_483_647;
    const saving = { kind: 'elide_tool_output', estimatedTokensSaved: largest };
    await new SqlSpendAppender(store.db).append(
      { id: 'call-max', promptTokens: largest, completionTokens: largest, decisions: [saving, saving] },
      new Date(),
    );
    const { rows } = await store.db.query('SELECT total_tokens, tokens_saved FROM gw_spend');
    expect(rows).toEqual([{ total_tokens: largest, tokens_saved: largest }]);
  });
});
