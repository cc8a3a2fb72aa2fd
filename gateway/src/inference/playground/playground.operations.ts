import { z } from 'zod';
import type { Clock } from '@gw/platform';
import type { KeyStore } from '../../identity/keys/key.store.js';
import { defineOperation, type AdminOperation } from '../../admin/operation.js';
import { boundTenantOf } from '../../admin/tenant-reach.js';

// The playground's key lives only as long as one test call can take (the longest provider wait included).
const playgroundKeyLifetimeMs = 5 * 60_000;

const playgroundBody = z.strictObject({
  model: z
    .string()
    .regex(/^[\x21-\x7e]{1,256}$/, 'printable ASCII, at most 256 characters')
    .describe('A model or alias, as a client would send it'),
  prompt: z.string().min(1).max(8_000).describe('One user message'),
  provider: z
    .string()
    .regex(/^[a-z0-9][a-z0-9-]{0,62}$/)
    .optional()
    .describe('A configured provider; absent, the routing decides as for any client'),
  maxTokens: z.int().min(1).max(1_024).default(64),
  team: z.string().trim().min(1).max(200).default('playground').describe('The team the test call is metered to'),
});

const playgroundResult = z.object({
  status: z.int().describe('What a client would have got'),
  provider: z.string().nullable().describe('x-gw-provider of the answer'),
  target: z.string().nullable().describe('x-gw-target: the provider and model that answered'),
  latencyMs: z.number(),
  traceId: z.string().nullable(),
  output: z.string().nullable().describe('The answer’s text'),
  usage: z.object({ promptTokens: z.int(), completionTokens: z.int(), totalTokens: z.int() }).nullable(),
  error: z
    .object({ code: z.string().nullable(), message: z.string() })
    .nullable()
    .describe('The error a client would have got'),
});
type PlaygroundResult = z.infer<typeof playgroundResult>;

interface ChatAnswer {
  choices?: Array<{ message?: { content?: unknown } }>;
  usage?: { prompt_tokens?: number; completion_tokens?: number; total_tokens?: number };
  error?: { code?: unknown; message?: unknown };
}

const header = (value: string | string[] | number | undefined) => (typeof value === 'string' ? value : null);

function resultOf(
  status: number,
  headers: Record<string, string | string[] | number | undefined>,
  body: ChatAnswer | null,
  latencyMs: number,
): PlaygroundResult {
  const usage = body?.usage;
  const content = body?.choices?.[0]?.message?.content;
  return {
    status,
    provider: header(headers['x-gw-provider']),
    target: header(headers['x-gw-target']),
    latencyMs: Math.round(latencyMs * 10) / 10,
    traceId: header(headers['x-gw-trace-id']),
    output: typeof content === 'string' ? content : null,
    usage: usage
      ? {
          promptTokens: usage.prompt_tokens ?? 0,
          completionTokens: usage.completion_tokens ?? 0,
          totalTokens: usage.total_tokens ?? 0,
        }
      : null,
    error: body?.error
      ? {
          code: typeof body.error.code === 'string' ? body.error.code : null,
          message: typeof body.error.message === 'string' ? body.error.message : 'unknown error',
        }
      : null,
  };
}

/**
 * `POST /admin/v1/playground` (legacy `/admin/test-request`): one chat call through
 * the whole `/v1` chain (identity, admission, routing, optimizer, metering), as a client would make it. The call runs
 * under a service key minted for it alone (source `playground`, five minutes) and revoked when it ends, so the test is
 * metered and audited like any other call and the playground adds no way in.
 */
export function playgroundOperations(deps: { keys: KeyStore; clock: Clock; fleetMode: boolean }): AdminOperation[] {
  return [
    defineOperation({
      id: 'playground.run',
      summary: 'Send one test chat request through the whole gateway chain and see what a client would get',
      method: 'POST',
      capability: 'playground:run',
      legacy: [{ path: '/admin/test-request' }],
      v1: { path: '/admin/v1/playground', scope: 'playground:run' },
      xScope: 'tenant',
      body: playgroundBody,
      response: playgroundResult,
      handler: async ({ body, principal, request }) => {
        const minted = await deps.keys.create({
          type: 'service',
          source: 'playground',
          name: `playground (${principal.actor})`,
          team: body.team,
          tenant: boundTenantOf(deps.fleetMode, principal),
          createdBy: principal.actor,
          expiresAt: new Date(deps.clock.now() + playgroundKeyLifetimeMs),
        });
        const started = performance.now();
        try {
          const answer = await request.server.inject({
            method: 'POST',
            url: '/v1/chat/completions',
            headers: {
              authorization: `Bearer ${minted.key}`,
              ...(body.provider ? { 'x-gw-provider': body.provider } : {}),
            },
            payload: {
              model: body.model,
              max_tokens: body.maxTokens,
              messages: [{ role: 'user', content: body.prompt }],
            },
          });
          let parsed: ChatAnswer | null = null;
          try {
            parsed = answer.json<ChatAnswer>();
          } catch {
            parsed = null;
          }
          return resultOf(answer.statusCode, answer.headers, parsed, performance.now() - started);
        } finally {
          await deps.keys.revoke(minted.record.id).catch(() => undefined);
        }
      },
    }),
  ];
}
