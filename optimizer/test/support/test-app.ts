import { ManualClock, createLogger, generateEd25519KeyPair, type Db } from '@gw/platform';
import type { FastifyInstance } from 'fastify';
import { buildApp, type AppConfig, type OptimizerAppDeps } from '../../src/app.js';
import type { PipelineDeps, PipelineInput, PipelineResult, RunPipeline } from '../../src/routes/pipeline-port.js';
import { migrateOptimizer } from '../../src/stash/migrations.js';
import { parseVerifyKey } from '../../src/signing/verify-signature.js';

export const contentKey = 'a1'.repeat(32);
export const optimizerToken = 'optimizer-token-0123456789';
export const adminToken = 'admin-token-0123456789abcdef';
export const auth = { authorization: `Bearer ${optimizerToken}` };
export const adminAuth = { authorization: `Bearer ${adminToken}` };

export interface TestAppOptions extends Partial<Omit<OptimizerAppDeps, 'config'>> {
  config?: Partial<AppConfig>;
  /** A migrated durable stash store; omitted means none (`unconfigured`). */
  db?: Db | null;
}

export interface TestApp {
  app: FastifyInstance;
  clock: ManualClock;
}

export async function testApp(options: TestAppOptions = {}): Promise<TestApp> {
  const clock = (options.clock as ManualClock | undefined) ?? new ManualClock();
  const { config, db, ...rest } = options;
  if (db) await migrateOptimizer(db);
  if (options.traceDb && options.traceDb !== db) await migrateOptimizer(options.traceDb);
  const app = await buildApp({
    logger: createLogger({ name: 'optimizer-test', level: 'silent' }),
    runPipeline: stashingPipeline,
    ...rest,
    clock,
    durable: options.durable ?? (db ? { db, source: 'env' } : { db: null, source: 'none' }),
    config: {
      GW_OPTIMIZER_TOKEN: optimizerToken,
      GW_OPTIMIZER_TENANT_TOKENS: [],
      GW_ADMIN_TOKEN: adminToken,
      GW_CONTENT_KEY: contentKey,
      GW_OPTIMIZER_MAX_BODY_BYTES: 32 * 1024 * 1024,
      GW_OPTIMIZER_VERIFY_KEY: undefined,
      GW_OPTIMIZER_STASH_WRITE_TIMEOUT_MS: 2_000,
      ...config,
    },
  });
  return { app, clock };
}

/**
 * A stand-in pipeline with the real one's contract: stashes every tool message longer than 200 characters and
 * leaves a handle in its place; everything else passes through.
 */
export const stashingPipeline: RunPipeline = async (
  input: PipelineInput,
  deps: PipelineDeps,
): Promise<PipelineResult> => {
  const messages = Array.isArray(input.request.messages)
    ? (input.request.messages as Array<Record<string, unknown>>)
    : [];
  const decisions: PipelineResult['decisions'] = [];
  const rewritten = [];
  for (const message of messages) {
    if (
      message.role === 'tool' &&
      typeof message.content === 'string' &&
      message.content.length > 200 &&
      !input.disabledKinds?.includes('stash_tool_output')
    ) {
      const handle = await deps.stash.put(message.content);
      if (handle) {
        const saved = Math.round(message.content.length / 4);
        decisions.push({
          kind: 'stash_tool_output',
          summary: `stashed ${message.content.length} chars`,
          estimatedTokensSaved: saved,
          estimatedSavingsUsd: 0,
        });
        rewritten.push({ ...message, content: `[elided; gw_retrieve ${handle}]` });
        continue;
      }
    }
    rewritten.push(message);
  }
  const estimatedTokensSaved = decisions.reduce((sum, decision) => sum + decision.estimatedTokensSaved, 0);
  return {
    request: { ...input.request, messages: rewritten },
    decisions,
    estimatedTokensSaved,
    suppressedKinds: [],
    strategyTimingsMs: { stash_tool_output: 0 },
  };
};

export function signingKeys() {
  const pair = generateEd25519KeyPair();
  return { ...pair, verifyKey: parseVerifyKey(pair.publicKey) };
}

export function chatRequest(toolOutput: string, extra: Record<string, unknown> = {}) {
  return {
    model: 'gpt-4o',
    messages: [
      { role: 'user', content: 'run the tests' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'bash', arguments: '{"cmd":"npm test"}' } }],
      },
      { role: 'tool', tool_call_id: 'call_1', content: toolOutput },
      { role: 'user', content: 'why did it fail?' },
    ],
    tools: [
      {
        type: 'function',
        function: { name: 'gw_retrieve', parameters: { type: 'object', properties: { handle: { type: 'string' } } } },
      },
    ],
    ...extra,
  };
}

export function numberedLines(count: number, prefix = 'line'): string {
  return Array.from({ length: count }, (_, index) => `${prefix} ${index + 1}`).join('\n');
}
