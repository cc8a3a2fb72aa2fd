import type { FastifyInstance } from 'fastify';
import { ManualClock, createLogger } from '@gw/platform';
import { createIsolatedPgDb, testDbUrl, type TestDb } from '@gw/testkit';
// Integration tests drive the real optimizer service in-process; production code never imports it.
import { buildApp as buildOptimizer, migrateOptimizer, type RunPipeline } from '@gw/optimizer';
import { adminHeaders, mintClientKey, startTestGateway, type TestGateway } from './helpers.js';

export const optimizerToken = 'mcp-test-optimizer-token-0123456789';
const contentKey = 'c3'.repeat(32);

/**
 * A pipeline with the real one's stash contract: every tool output longer than 200 characters goes through the real
 * stash (memory tier plus a durable AES-GCM row) and is replaced by a marker carrying its `ctx_` handle.
 */
const stashToolOutputs: RunPipeline = async (input, deps) => {
  const messages = Array.isArray(input.request.messages)
    ? (input.request.messages as Array<Record<string, unknown>>)
    : [];
  const rewritten = [];
  for (const message of messages) {
    const handle =
      message.role === 'tool' && typeof message.content === 'string' && message.content.length > 200
        ? await deps.stash.put(message.content)
        : null;
    rewritten.push(
      handle ? { ...message, content: `[output elided; call gw_retrieve with handle ${handle}]` } : message,
    );
  }
  return {
    request: { ...input.request, messages: rewritten },
    decisions: [],
    estimatedTokensSaved: 0,
    suppressedKinds: [],
    strategyTimingsMs: {},
  };
};

export interface TestOptimizer {
  app: FastifyInstance;
  url: string;
  /** Stash `content` as a tool output of `user` through `/v1/optimize`; returns the real handle it minted. */
  stash(content: string, user?: string): Promise<string>;
  close(): Promise<void>;
}

/** The optimizer service on port 0 with its durable stash on an isolated Postgres schema (the stash-everything pipeline unless given). */
export async function startTestOptimizer(
  options: {
    runPipeline?: RunPipeline;
    adminToken?: string;
    clock?: ManualClock;
    supportsAgentContinuation?: boolean;
  } = {},
): Promise<TestOptimizer> {
  const store: TestDb = await createIsolatedPgDb(testDbUrl(process.env));
  await migrateOptimizer(store.db);
  const app = await buildOptimizer({
    logger: createLogger({ name: 'optimizer-under-test', level: 'silent' }),
    runPipeline: options.runPipeline ?? stashToolOutputs,
    clock: options.clock ?? new ManualClock(Date.UTC(2026, 10, 23, 12)),
    ...(options.supportsAgentContinuation ? { supportsAgentContinuation: true } : {}),
    durable: { db: store.db, source: 'env' },
    config: {
      GW_OPTIMIZER_TOKEN: optimizerToken,
      GW_OPTIMIZER_TENANT_TOKENS: [],
      GW_ADMIN_TOKEN: options.adminToken,
      GW_CONTENT_KEY: contentKey,
      GW_OPTIMIZER_MAX_BODY_BYTES: 32 * 1024 * 1024,
      GW_OPTIMIZER_VERIFY_KEY: undefined,
      GW_OPTIMIZER_STASH_WRITE_TIMEOUT_MS: 5_000,
    },
  });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  let closed = false;
  return {
    app,
    url,
    stash: async (content, user = 'dev@example.com') => {
      const response = await fetch(`${url}/v1/optimize`, {
        method: 'POST',
        headers: { authorization: `Bearer ${optimizerToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          endpoint: '/v1/chat/completions',
          metadata: { user, team: 'platform' },
          capabilities: { retrieveEvidence: true },
          request: {
            model: 'gpt-4o',
            messages: [
              { role: 'user', content: 'run the tests' },
              {
                role: 'assistant',
                content: null,
                tool_calls: [
                  { id: 'call_1', type: 'function', function: { name: 'bash', arguments: '{"cmd":"npm test"}' } },
                ],
              },
              { role: 'tool', tool_call_id: 'call_1', content },
            ],
          },
        }),
      });
      const body = (await response.json()) as { request: { messages: Array<{ content: string | null }> } };
      const handle = /ctx_[A-Za-z0-9_-]+/.exec(JSON.stringify(body.request.messages[2]?.content ?? ''))?.[0];
      if (response.status !== 200 || !handle)
        throw new Error(`optimizer did not stash: ${response.status} ${JSON.stringify(body)}`);
      return handle;
    },
    close: async () => {
      if (closed) return;
      closed = true;
      await app.close();
      await store.dispose();
    },
  };
}

export interface RetrievalStack {
  gateway: TestGateway;
  /** The gateway listening on port 0 (real HTTP, for the MCP SDK client). */
  baseUrl: string;
  key: string;
  keyId: string;
  close(): Promise<void>;
}

/** A gateway on port 0, optionally pointed at an optimizer, with one minted client key. */
export async function startRetrievalStack(optimizerUrl: string | null): Promise<RetrievalStack> {
  const gateway = await startTestGateway({
    env: optimizerUrl ? { GW_OPTIMIZER_URL: optimizerUrl, GW_OPTIMIZER_TOKEN: optimizerToken } : {},
  });
  const baseUrl = await gateway.app.listen({ port: 0, host: '127.0.0.1' });
  const { key, record } = await mintClientKey(gateway.app, { user: 'dev@example.com', team: 'platform' });
  return { gateway, baseUrl, key, keyId: record.id, close: () => gateway.close() };
}

export { adminHeaders };

/** A tool output with the bytes a model must get back exactly: indentation, trailing spaces, tabs, non-ASCII, CRLF. */
export function toolOutput(lines = 60): string {
  const body = Array.from({ length: lines }, (_, index) =>
    index === 41 ? `  FAIL src/parser.test.ts › handles ünïcode\t(expected "✓")  ` : `  PASS test ${index + 1}: ok`,
  );
  return `${body.join('\n')}\r\nTests: 1 failed, ${lines - 1} passed\n`;
}
