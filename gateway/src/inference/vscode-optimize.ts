import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { conversationKey } from '../routing/conversation-key.js';
import { gatewaySessionIdOf, type Optimization } from '../optimization/hook/pre-call-hook.js';
import { lookupModel } from '../providers/pricing/known-models.js';
import type { InferenceDeps } from './inference-deps.js';
import { optimizeCall } from './optimize-call.js';
import type { LaneReport, LaneScope } from './lane-report.js';
import type { InferenceCall } from './inference-call.js';

// Exactly `{request: object}`; anything else (including client-authored usage or cost) is a 400.
export const vscodeOptimizeBody = z.strictObject({ request: z.record(z.string(), z.unknown()) });

const decisionKind = /^[a-z0-9_-]{1,64}$/;
const maxInteger = 2_000_000_000;
const clampInt = (value: number) => Math.min(Math.max(Math.round(value), 0), maxInteger);

// Every field bounded and patterned.
export const vscodeOptimizeResponse = z.object({
  request: z.record(z.string(), z.unknown()),
  optimization: z.object({
    optimizationId: z.string().regex(/^[A-Za-z0-9_-]{1,128}$/),
    status: z.enum(['applied', 'skipped', 'disabled', 'timeout', 'error']),
    latencyMs: z.number().int().min(0).max(maxInteger),
    decisions: z
      .array(
        z.object({
          kind: z.string().regex(decisionKind),
          estimatedTokensSaved: z.number().int().min(0).max(maxInteger),
        }),
      )
      .max(64),
    estimatedTokensSaved: z.number().int().min(0).max(maxInteger),
  }),
});

function optimizationObject(optimization: Optimization) {
  const id =
    optimization.optimizationId && /^[A-Za-z0-9_-]{1,128}$/.test(optimization.optimizationId)
      ? optimization.optimizationId
      : `opt_${randomUUID().replaceAll('-', '')}`;
  return {
    optimizationId: id,
    status: optimization.status,
    latencyMs: clampInt(optimization.latencyMs ?? 0),
    decisions: optimization.decisions
      .map((decision) => ({
        kind: decision.kind
          .toLowerCase()
          .replace(/[^a-z0-9_-]/g, '_')
          .slice(0, 64),
        estimatedTokensSaved: clampInt(decision.estimatedTokensSaved),
      }))
      .filter((decision) => decisionKind.test(decision.kind))
      .slice(0, 64),
    estimatedTokensSaved: clampInt(optimization.tokensSaved),
  };
}

/**
 * `POST /v1/extensions/vscode/optimize`: the editor extension asks for an optimized request and forwards it itself.
 * Fail-open, no provider call, and a zero-token spend row that records the savings.
 */
export async function runVscodeOptimize(
  deps: Pick<InferenceDeps, 'clock' | 'coord' | 'logger' | 'optimizer' | 'optimizerBreaker' | 'pins' | 'routing'>,
  scope: LaneScope,
): Promise<LaneReport> {
  const { request, reply } = scope;
  const body = (request.body as z.infer<typeof vscodeOptimizeBody>).request;
  // The optimizer reads either wire format from the body itself; the client format only matters for forwarding.
  const call: InferenceCall = {
    endpoint: '/v1/extensions/vscode/optimize',
    operation: { kind: 'chat' },
    clientFormat: 'chat-completions',
    body,
  };
  const identity = request.gw.identity;
  const model = typeof body.model === 'string' ? body.model : '';
  const sticky = conversationKey({
    sessionHeader: undefined,
    metadata: identity?.metadata ?? {},
    body,
    caller: identity?.user ?? identity?.keyId ?? 'anonymous',
  });
  const family = lookupModel(model)?.family ?? 'openai';
  const report = {
    call,
    billingMode: 'none',
    selection: null,
    sent: null,
    attempts: 0,
    sessionId: gatewaySessionIdOf(sticky),
  } as const;
  try {
    const { optimization } = await optimizeCall(deps, call, request, { model, family, subscription: false }, sticky);
    const answer = { request: optimization.body, optimization: optimizationObject(optimization) };
    reply.code(200).send(answer);
    const relayed = {
      status: 200,
      errorCode: null,
      usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 },
      usageEstimated: false,
      stream: false,
      firstByteMs: null,
      answer,
    };
    return { ...report, optimization, end: { kind: 'relayed', relayed } };
  } catch (thrown) {
    return { ...report, end: { kind: 'failed', thrown } };
  }
}
