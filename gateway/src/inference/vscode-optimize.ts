import { randomUUID } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { conversationKey } from '../routing/conversation-key.js';
import { gatewaySessionIdOf, type Optimization } from '../optimization/hook/pre-call-hook.js';
import { lookupModel } from '../providers/pricing/known-models.js';
import type { InferenceDeps } from './inference-deps.js';
import { optimizeCall } from './optimize-call.js';
import { buildSpendRecord, type CallOutcome } from './spend-from-call.js';
import type { InferenceCall } from './run-inference.js';
import { recordSpend } from '../metering/record-spend.js';

// spec 000 §4.1: exactly `{request: object}`; anything else (including client-authored usage or cost) is a 400.
export const vscodeOptimizeBody = z.strictObject({ request: z.record(z.string(), z.unknown()) });

const decisionKind = /^[a-z0-9_-]{1,64}$/;
const maxInteger = 2_000_000_000;
const clampInt = (value: number) => Math.min(Math.max(Math.round(value), 0), maxInteger);

// spec 000 §2 "VS Code optimize response object": every field bounded and patterned.
export const vscodeOptimizeResponse = z.object({
  request: z.record(z.string(), z.unknown()),
  optimization: z.object({
    optimizationId: z.string().regex(/^[A-Za-z0-9_-]{1,128}$/),
    status: z.enum(['applied', 'skipped', 'disabled', 'timeout', 'error']),
    latencyMs: z.number().int().min(0).max(maxInteger),
    decisions: z.array(z.object({ kind: z.string().regex(decisionKind), estimatedTokensSaved: z.number().int().min(0).max(maxInteger) })).max(64),
    estimatedTokensSaved: z.number().int().min(0).max(maxInteger),
  }),
});

function optimizationObject(optimization: Optimization) {
  const id = optimization.optimizationId && /^[A-Za-z0-9_-]{1,128}$/.test(optimization.optimizationId) ? optimization.optimizationId : `opt_${randomUUID().replaceAll('-', '')}`;
  return {
    optimizationId: id,
    status: optimization.status,
    latencyMs: clampInt(optimization.latencyMs ?? 0),
    decisions: optimization.decisions
      .map((decision) => ({ kind: decision.kind.toLowerCase().replace(/[^a-z0-9_-]/g, '_').slice(0, 64), estimatedTokensSaved: clampInt(decision.estimatedTokensSaved) }))
      .filter((decision) => decisionKind.test(decision.kind))
      .slice(0, 64),
    estimatedTokensSaved: clampInt(optimization.tokensSaved),
  };
}

/**
 * `POST /v1/extensions/vscode/optimize`: the editor extension asks for an optimized request and forwards it itself.
 * Fail-open, no provider call, and a zero-token spend row that records the savings.
 */
export async function runVscodeOptimize(deps: InferenceDeps, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const body = (request.body as z.infer<typeof vscodeOptimizeBody>).request;
  // The optimizer reads either wire format from the body itself; the client format only matters for forwarding.
  const call: InferenceCall = { endpoint: '/v1/extensions/vscode/optimize', operation: { kind: 'chat' }, clientFormat: 'chat-completions', body };
  const identity = request.gw.identity;
  const model = typeof body.model === 'string' ? body.model : '';
  const sticky = conversationKey({ sessionHeader: undefined, metadata: identity?.metadata ?? {}, body, caller: identity?.user ?? identity?.keyId ?? 'anonymous' });
  const family = lookupModel(model)?.family ?? 'openai';
  const { optimization } = await optimizeCall(deps, call, request, { model, family, subscription: false }, sticky);
  const outcome: CallOutcome = { status: 200, selection: null, usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 }, upstreamMs: null, errorCode: null, stream: false, firstByteMs: null, attempts: 0, billingMode: 'none', optimization, sessionId: gatewaySessionIdOf(sticky) };
  recordSpend(deps.spend, request, buildSpendRecord({ request, call, outcome, now: deps.clock.now(), id: randomUUID(), modelFacts: deps.routing.documents.models }));
  return reply.code(200).send({ request: optimization.body, optimization: optimizationObject(optimization) });
}
