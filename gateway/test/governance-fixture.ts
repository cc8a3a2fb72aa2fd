import type { FastifyInstance } from 'fastify';
import type { Coord, Db } from '@gw/platform';
import { startAnthropicSimulator, startOpenAiSimulator, type Behaviour, type SimulatorHandle } from '@gw/testkit';
import { adminHeaders, bearer, mintClientKey, startTestGateway, type TestGateway } from './helpers.js';
import { anthropicServerKey, openAiServerKey, type InferenceFixture } from './inference-helpers.js';

/** Shared steps of the governance and spend tests (caps, budgets, limits, reports). */

export type Json = Record<string, unknown>;

export async function admin(
  app: FastifyInstance,
  method: 'GET' | 'PUT' | 'PATCH' | 'POST',
  url: string,
  payload?: unknown,
) {
  return app.inject({
    method,
    url,
    headers: adminHeaders,
    ...(payload === undefined ? {} : { payload: payload as Json }),
  });
}

/** One chat completion; `gpt-4.1` is priced ($2/M in, $8/M out), so costs are exact and known. */
export function chat(app: FastifyInstance, key: string, body: Json = {}, headers: Record<string, string> = {}) {
  return app.inject({
    method: 'POST',
    url: '/v1/chat/completions',
    headers: { ...bearer(key), 'content-type': 'application/json', ...headers },
    payload: JSON.stringify({ model: 'gpt-4.1', messages: [{ role: 'user', content: 'hello' }], ...body }),
  });
}

/** Every model request of the simulator answers with this behaviour (fixed usage makes cost exact). */
export function answerAlways(simulator: SimulatorHandle, behaviour: Behaviour): () => void {
  return simulator.respondWhen(() => true, behaviour);
}

/** Wait until the metering listener has counted every record so far. */
export async function metered(gateway: TestGateway): Promise<void> {
  await gateway.deps.governance.idle();
}

/** Run `total` requests with at most `concurrency` in flight at once. */
export async function pool<T>(total: number, concurrency: number, run: (index: number) => Promise<T>): Promise<T[]> {
  const results: T[] = new Array<T>(total);
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        const index = next;
        next += 1;
        results[index] = await run(index);
      }
    }),
  );
  return results;
}

export async function metricsText(app: FastifyInstance): Promise<string> {
  return (await app.inject({ method: 'GET', url: '/metrics' })).body;
}

/**
 * Like `startInferenceFixture`, with a chosen Coord or store (outage and replica tests): an OpenAI-style provider
 * `openai` (the default) and an Anthropic-style provider `anthropic`, and a client key for ada@example.com.
 */
export async function startGovernanceFixture(
  options: { coord?: Coord; db?: Db; env?: Record<string, string> } = {},
): Promise<InferenceFixture> {
  const openai = await startOpenAiSimulator({ apiKey: openAiServerKey });
  const anthropic = await startAnthropicSimulator({ apiKey: anthropicServerKey });
  const gateway = await startTestGateway(options);
  await configureProviders(gateway, openai, anthropic);
  const { key } = await mintClientKey(gateway.app, { user: 'ada@example.com', team: 'compilers' });
  return {
    gateway,
    openai,
    anthropic,
    clientKey: key,
    auth: bearer(key),
    close: async () => {
      await gateway.close();
      await openai.close();
      await anthropic.close();
    },
  };
}

export async function configureProviders(
  gateway: TestGateway,
  openai: SimulatorHandle,
  anthropic: SimulatorHandle,
): Promise<void> {
  const put = async (slug: string, body: Json) => {
    const response = await admin(gateway.app, 'PUT', `/admin/v1/providers/${slug}/key`, body);
    if (response.statusCode !== 200) throw new Error(`provider ${slug}: ${response.statusCode} ${response.body}`);
  };
  await put('openai', { apiKey: openAiServerKey, baseUrl: openai.baseURL });
  await put('anthropic', { apiKey: anthropicServerKey, baseUrl: anthropic.url });
  await admin(gateway.app, 'PUT', '/admin/v1/routing', { defaultProvider: 'openai' });
}

export { spendRowOf as spendRowEventually } from './spend-signals.js';
