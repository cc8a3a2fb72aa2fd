import { describe, expect, it } from 'vitest';
import { createLogger, MemoryCoord, type Coord } from '@gw/platform';
import type { OptimizeRequest, OptimizeResponse } from '@gw/contracts';
import { parseMetadataHeader } from '../../identity/caller.js';
import { OptimizerCallError, type OptimizerClient } from './optimizer-client.js';
import { CircuitBreaker } from './circuit-breaker.js';
import { runPreCallHook, type HookInput } from './pre-call-hook.js';
import { SessionPins } from './session-pins.js';

const logger = createLogger({ name: 'pre-call-hook-test', level: 'silent' });
const chatBody = { model: 'gpt-4.1', stream: false, messages: [{ role: 'user', content: 'hello' }] };
const completion = {
  id: 'c1',
  object: 'chat.completion',
  choices: [{ index: 0, message: { role: 'assistant', content: 'cached' }, finish_reason: 'stop' }],
};

function answer(overrides: Partial<OptimizeResponse> = {}): OptimizeResponse {
  return {
    protocolVersion: 1,
    features: {},
    optimizationId: 'opt_1',
    request: chatBody,
    decisions: [],
    estimatedTokensSaved: 0,
    cacheHit: false,
    cacheEligible: false,
    suppressedKinds: [],
    strategyTimingsMs: {},
    ...overrides,
  } as OptimizeResponse;
}

/** An optimizer client that records what it was sent and answers as told. */
function fakeOptimizer(reply: (request: OptimizeRequest) => OptimizeResponse) {
  const sent: OptimizeRequest[] = [];
  const client = {
    optimize: async (request: OptimizeRequest) => (sent.push(request), reply(request)),
  } as unknown as OptimizerClient;
  return { client, sent };
}

function hook(client: OptimizerClient, input: Partial<HookInput> = {}, coord: Coord = new MemoryCoord()) {
  const base: HookInput = {
    endpoint: '/v1/chat/completions',
    body: chatBody,
    model: 'gpt-4.1',
    family: 'openai',
    user: 'ada',
    team: 'compilers',
    gatewaySessionId: 'gws_1',
    clientCanRetrieve: false,
    billingMode: 'api_key',
    metadata: {},
    canShortCircuit: true,
    cache: { scope: 'scope-1', serve: true, store: true, maxAgeSeconds: null },
  };
  return runPreCallHook(
    { optimizer: client, pins: new SessionPins(coord), now: () => 0, logger },
    { ...base, ...input },
  );
}

describe('pre-call hook: what the gateway takes from the optimizer', () => {
  it('forwards the client body when a rewrite changes what the request asks for', async () => {
    const rewrites = [
      { model: 'gpt-4.1' },
      { ...chatBody, messages: [] },
      { ...chatBody, stream: true },
      { ...chatBody, model: 7 },
    ];
    for (const request of rewrites) {
      const { client } = fakeOptimizer(() => answer({ request, estimatedTokensSaved: 40 }));
      const optimization = await hook(client);
      expect(optimization).toMatchObject({
        status: 'error',
        reason: 'malformed_request',
        body: chatBody,
        changed: false,
      });
    }
    const shorter = { ...chatBody, messages: [{ role: 'user', content: 'hi' }] };
    const { client } = fakeOptimizer(() => answer({ request: shorter, estimatedTokensSaved: 40 }));
    expect(await hook(client)).toMatchObject({ status: 'applied', body: shorter, changed: true });
  });

  it('serves a cached answer only to a call that can be short-circuited, in the client wire format', async () => {
    const hit = fakeOptimizer(() => answer({ cacheHit: true, cachedResponse: completion }));
    expect((await hook(hit.client)).cache.hit).toEqual(completion);
    expect((await hook(hit.client, { canShortCircuit: false })).cache.hit).toBeNull();
    expect((await hook(hit.client, { endpoint: '/v1/messages' })).cache.hit).toBeNull();
    // A refresh (`Cache-Control: no-cache`) looks the entry up only to replace it.
    expect(
      (await hook(hit.client, { cache: { scope: 'scope-1', serve: false, store: true, maxAgeSeconds: null } })).cache
        .hit,
    ).toBeNull();
  });

  it('writes nothing under no-store, and caps the entry lifetime at max_age', async () => {
    const eligible = fakeOptimizer(() => answer({ cacheEligible: true, cacheKey: 'gwc2.l.k', cacheTtlSeconds: 3600 }));
    expect(
      (await hook(eligible.client, { cache: { scope: 'scope-1', serve: false, store: false, maxAgeSeconds: null } }))
        .cache.eligible,
    ).toBe(false);
    expect(
      (await hook(eligible.client, { cache: { scope: 'scope-1', serve: true, store: true, maxAgeSeconds: 60 } })).cache,
    ).toMatchObject({ eligible: true, ttlSeconds: 60, scope: 'scope-1' });
  });

  it('never forwards a client spelling of a key the gateway owns', async () => {
    const { client, sent } = fakeOptimizer(() => answer());
    // x-gw-metadata is the only source of caller attribution; keys the gateway owns never survive its parsing.
    const metadata = parseMetadataHeader(
      JSON.stringify({
        tenant: 'other',
        user: 'mallory',
        gatewaySessionId: 'gws_x',
        billingMode: 'subscription',
        cacheScope: 'someone-else',
        project: 'p1',
      }),
    );
    await hook(client, { metadata });
    expect(sent[0]?.metadata).toMatchObject({
      user: 'ada',
      team: 'compilers',
      gatewaySessionId: 'gws_1',
      billingMode: 'api_key',
      cacheScope: 'scope-1',
      project: 'p1',
    });
    expect(sent[0]?.metadata).not.toHaveProperty('tenant');
  });

  it('omits pins when the store cannot read them, and stores a list over 256 KiB of UTF-8 by dropping the old one', async () => {
    const coord = new MemoryCoord();
    await coord.setValue('pins:gws_1', '{"not":"a list"}', 60_000);
    const { client, sent } = fakeOptimizer(() => answer({ pins: [{ kind: 'k' }] as OptimizeResponse['pins'] }));
    await hook(client, {}, coord);
    expect(sent[0]).not.toHaveProperty('pins');
    expect(await coord.getValue('pins:gws_1')).toBe('{"not":"a list"}');

    await coord.setValue('pins:gws_1', '[{"kind":"old"}]', 60_000);
    // 140k two-byte characters: under 256 Ki characters, over 256 KiB.
    const big = [{ kind: 'k', recipe: 'é'.repeat(140_000) }] as unknown as OptimizeResponse['pins'];
    await hook(fakeOptimizer(() => answer({ pins: big })).client, {}, coord);
    expect(await coord.getValue('pins:gws_1')).toBeNull();
  });

  it('sends the gateway’s retrieval verdict as a capability and keeps the evidence class the optimizer answered', async () => {
    const { client, sent } = fakeOptimizer(() => answer({ evidenceClass: 'deferral_latched' }));
    const optimization = await hook(client, { retrievalDiscovery: 'lease_live', clientCanRetrieve: true });
    expect(sent[0]?.capabilities).toMatchObject({ retrievalDiscovery: 'lease_live', retrieveEvidence: true });
    expect(sent[0]?.capabilities).not.toHaveProperty('agentContinuation');
    expect(sent[0]?.metadata).not.toHaveProperty('retrievalDiscovery');
    expect(optimization.evidenceClass).toBe('deferral_latched');
    const without = fakeOptimizer(() => answer());
    expect((await hook(without.client)).evidenceClass).toBeNull();
    expect(without.sent[0]?.capabilities).not.toHaveProperty('retrievalDiscovery');
  });

  it('fails a continuation request open, storing none of the answer, unless it asserts the continuation path', async () => {
    const coord = new MemoryCoord();
    await coord.setValue('pins:gws_1', '[{"kind":"old"}]', 60_000);
    const shorter = { ...chatBody, messages: [{ role: 'user', content: 'hi' }] };
    const pins = [{ kind: 'new' }] as OptimizeResponse['pins'];
    for (const features of [
      { persistentTranscriptPolicyV1: true, agentContinuationV1: false },
      { persistentTranscriptPolicyV1: true },
    ]) {
      const refused = fakeOptimizer(() =>
        answer({
          features,
          request: shorter,
          estimatedTokensSaved: 40,
          pins,
          evidenceClass: 'toolless',
        } as Partial<OptimizeResponse>),
      );
      const optimization = await hook(refused.client, { agentContinuation: true, retrievalDiscovery: 'none' }, coord);
      expect(refused.sent[0]?.capabilities).toMatchObject({ agentContinuation: true });
      expect(optimization).toMatchObject({
        status: 'skipped',
        reason: 'continuation_unavailable',
        body: chatBody,
        changed: false,
        tokensSaved: 0,
        evidenceClass: 'toolless',
      });
      expect(await coord.getValue('pins:gws_1')).toBe('[{"kind":"old"}]');
    }
    const served = fakeOptimizer(() =>
      answer({
        features: { persistentTranscriptPolicyV1: true, agentContinuationV1: true },
        request: shorter,
        estimatedTokensSaved: 40,
        pins,
      }),
    );
    expect(await hook(served.client, { agentContinuation: true }, coord)).toMatchObject({
      status: 'applied',
      body: shorter,
      changed: true,
    });
    expect(await coord.getValue('pins:gws_1')).toBe('[{"kind":"new"}]');
  });
});

describe('pre-call hook: the circuit breaker', () => {
  const input: HookInput = {
    endpoint: '/v1/chat/completions',
    body: chatBody,
    model: 'gpt-4.1',
    family: 'openai',
    user: 'ada',
    team: 'compilers',
    gatewaySessionId: null,
    clientCanRetrieve: false,
    billingMode: 'api_key',
    metadata: {},
    canShortCircuit: true,
    cache: { scope: 'scope-1', serve: true, store: true, maxAgeSeconds: null },
  };
  const failing = (error: OptimizerCallError) => {
    let calls = 0;
    const client = {
      optimize: async () => {
        calls += 1;
        throw error;
      },
    } as unknown as OptimizerClient;
    return { client, calls: () => calls };
  };
  const run = (client: OptimizerClient, breaker: CircuitBreaker) =>
    runPreCallHook(
      { optimizer: client, breaker, pins: new SessionPins(new MemoryCoord()), now: () => 0, logger },
      input,
    );

  it.each([
    ['a timeout', new OptimizerCallError('timeout', null, 'timed out'), 'timeout', 'timeout'],
    ['an unreachable optimizer', new OptimizerCallError('unreachable', null, 'down'), 'error', 'unreachable'],
    ['a 503', new OptimizerCallError('status', 503, 'answered 503'), 'error', 'http_503'],
    ['a 429', new OptimizerCallError('status', 429, 'answered 429'), 'error', 'http_429'],
    ['a malformed answer', new OptimizerCallError('malformed', 200, 'not the protocol'), 'error', 'malformed'],
  ])('opens on %s repeated, then skips the optimizer', async (_name, error, status, reason) => {
    const breaker = new CircuitBreaker({ failureThreshold: 2, coolOffMs: 1_000, now: () => 0 });
    const { client, calls } = failing(error);
    expect(await run(client, breaker)).toMatchObject({ status, reason });
    expect(await run(client, breaker)).toMatchObject({ status, reason });
    expect(await run(client, breaker)).toMatchObject({
      status: 'error',
      reason: 'circuit_open',
      latencyMs: null,
      body: chatBody,
      changed: false,
    });
    expect(calls()).toBe(2);
  });

  it('does not count a refusal (401, 403, 402) against the optimizer: it answered', async () => {
    const breaker = new CircuitBreaker({ failureThreshold: 2, coolOffMs: 1_000, now: () => 0 });
    const { client, calls } = failing(new OptimizerCallError('status', 401, 'answered 401'));
    for (let call = 0; call < 4; call += 1)
      expect(await run(client, breaker)).toMatchObject({ status: 'error', reason: 'http_401' });
    expect(calls()).toBe(4);
    expect(breaker.state).toBe('closed');
  });
});
