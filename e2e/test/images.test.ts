import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { components, type ComponentName } from '@gw/operator';
import { startOpenAiSimulator, type SimulatorHandle, createIsolatedPgDb, testDbUrl } from '@gw/testkit';
import {
  images,
  inspectImage,
  probe,
  requireImages,
  runContainer,
  freePort,
  type RunningContainer,
} from './containers.js';
import { adminRequest } from './gateway-stack.js';

// The images `npm run image` built, as containers: non-root on a read-only root filesystem, each component started
// with only the variables a user sets and answering the probes the operator writes, a real OpenAI SDK call through
// the gateway container landing as a spend row in Postgres, and SIGTERM drained within the configured deadline.

const adminToken = 'image-admin-token-0123456789abcdef';
const optimizerToken = 'image-optimizer-token-0123456789abcdef';
const portVariable: Record<ComponentName, string> = {
  gateway: 'GW_PORT',
  optimizer: 'GW_OPTIMIZER_PORT',
  evidence: 'GW_EVIDENCE_PORT',
};

describe('container images', () => {
  let database: Awaited<ReturnType<typeof createIsolatedPgDb>>;
  let provider: SimulatorHandle;
  const running: RunningContainer[] = [];

  /** Starts one component the way a user does and waits until its readiness probe answers 200. */
  const startComponent = async (
    component: ComponentName,
    env: Record<string, string>,
    args: string[] = [component],
  ) => {
    const port = await freePort();
    const container = runContainer({
      image: images.component,
      args,
      env: { ...env, [portVariable[component]]: String(port) },
      emptyDirs: ['/data', '/tmp'],
    });
    running.push(container);
    const url = `http://127.0.0.1:${port}`;
    try {
      // The one bounded retry left: the service logs when it listens inside the container, but the host port that
      // the container runtime forwards to it says nothing when it starts forwarding, so the readiness probe the
      // image declares (what Kubernetes would call) is asked until it answers.
      await expect
        .poll(() => probe(`${url}${components[component].probes.readiness}`), { timeout: 30_000, interval: 100 })
        .toBe(200);
    } catch (error) {
      throw new Error(`${component} never became ready:\n${container.logs()}`, { cause: error });
    }
    return { container, url };
  };
  const databaseUrl = () => `${database.url}?options=${encodeURIComponent(`-c search_path=${database.schema}`)}`;

  beforeAll(async () => {
    requireImages(images.component, images.operator);
    [database, provider] = await Promise.all([
      createIsolatedPgDb(testDbUrl(process.env)),
      startOpenAiSimulator({ apiKey: 'sk-image-0123456789' }),
    ]);
  });

  afterAll(async () => {
    for (const container of running) container.remove();
    await Promise.all([provider?.close(), database?.dispose()]);
  });

  it('run as a fixed non-root user with declared data and temp volumes, labelled with version, source and licence', () => {
    for (const tag of [images.component, images.operator]) {
      const config = inspectImage(tag);
      expect(config.user).toBe('65532:65532');
      expect(config.volumes.sort()).toEqual(['/data', '/tmp']);
      expect(config.labels).toMatchObject({
        'org.opencontainers.image.version': images.version,
        'org.opencontainers.image.source': expect.stringMatching(/^https:\/\//),
        'org.opencontainers.image.licenses': expect.any(String),
      });
    }
    expect(inspectImage(images.component).cmd).toEqual(['gateway']);
  });

  it('refuses an unknown component with a clear message', async () => {
    const container = runContainer({ image: images.component, args: ['billing'], env: {} });
    running.push(container);
    expect((await container.exited()).exitCode).toBe(2);
    expect(container.logs()).toMatch(
      /unknown component "billing": the first argument is one of gateway, optimizer, evidence/,
    );
  });

  it.each([['optimizer'], ['evidence']] as const)(
    'starts the %s with a user’s variables, answers its probes and exits 0 on SIGTERM',
    async (component) => {
      const env: Record<string, string> =
        component === 'optimizer'
          ? { GW_OPTIMIZER_TOKEN: optimizerToken, GW_ADMIN_TOKEN: adminToken, GW_SPEND_DB_URL: databaseUrl() }
          : { GW_ADMIN_TOKEN: adminToken, GW_SPEND_DB_URL: databaseUrl() };
      const { container, url } = await startComponent(component, env);
      expect(await probe(`${url}${components[component].probes.liveness}`)).toBe(200);
      const { exitCode, seconds } = await container.stop('TERM');
      expect(exitCode).toBe(0);
      expect(seconds).toBeLessThan(10);
    },
    60_000,
  );

  it('serves the official OpenAI SDK through the gateway container, drains on SIGTERM, and every call has its spend row in Postgres', async () => {
    // No argument: the image runs the gateway by default.
    const { container, url } = await startComponent(
      'gateway',
      {
        GW_ADMIN_TOKEN: adminToken,
        GW_SPEND_DB_URL: databaseUrl(),
        GW_KEYSTORE_KEY: 'a1'.repeat(32),
        GW_ALLOW_PRIVATE_UPSTREAMS: 'true',
        GW_DRAIN_TIMEOUT_MS: '2000',
      },
      [],
    );
    expect(await probe(`${url}${components.gateway.probes.liveness}`)).toBe(200);
    const admin = (method: string, path: string, body?: unknown) =>
      adminRequest({ url, token: adminToken }, method, path, body);
    expect(
      (
        await admin('PUT', '/admin/v1/providers/openai/key', {
          apiKey: 'sk-image-0123456789',
          baseUrl: provider.baseURL,
        })
      ).status,
    ).toBe(200);
    expect((await admin('PUT', '/admin/v1/routing', { defaultProvider: 'openai' })).status).toBe(200);
    const minted = await admin('POST', '/admin/v1/keys', { user: 'ada@example.com', team: 'platform' });
    expect(minted.status).toBe(201);

    const client = new OpenAI({ apiKey: minted.body.key as string, baseURL: `${url}/v1`, maxRetries: 0 });
    const completion = await client.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'hello from a container' }],
    });
    expect(completion.choices[0]?.message.content).toContain('Simulated reply');
    expect(provider.requests.at(-1)?.headers.authorization).toBe('Bearer sk-image-0123456789');
    // The local token estimate (an OpenAI-family provider does not count) loads the tokenizer the image trims and
    // the gateway imports only after it listens: a file the trim took too many of fails here.
    const counted = await fetch(`${url}/v1/messages/count_tokens`, {
      method: 'POST',
      headers: { authorization: `Bearer ${minted.body.key as string}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'how many tokens is this' }] }),
    });
    expect(counted.status).toBe(200);
    expect(((await counted.json()) as { input_tokens: number }).input_tokens).toBeGreaterThan(5);

    // A call the provider answers in ten seconds is still running when SIGTERM arrives: the drain deadline (two
    // seconds) answers it with a retryable 503 and the container exits 0 well before the provider would have.
    provider.script({ latencyMs: 10_000 });
    const pending = fetch(`${url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${minted.body.key as string}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'answer slowly' }] }),
    });
    await provider.waitForRequests(2);
    const [stopped, unanswered] = await Promise.all([container.stop('TERM'), pending]);
    expect(unanswered.status).toBe(503);
    expect(((await unanswered.json()) as { error: { code: string } }).error.code).toBe('gateway_draining');
    expect(stopped.exitCode).toBe(0);
    expect(stopped.seconds).toBeLessThan(10);

    // The drain writes every pending spend record before the process exits, so its exit is the signal: both calls
    // are in Postgres, the answered one with the provider's usage and the one the drain cut with its 503.
    const { rows } = await database.db.query<Record<string, unknown>>(
      'SELECT endpoint, status, provider, model, user_id, team, prompt_tokens FROM gw_spend ORDER BY status',
    );
    expect(rows).toEqual([
      {
        endpoint: '/v1/chat/completions',
        status: 200,
        provider: 'openai',
        model: 'gpt-4o-mini',
        user_id: 'ada@example.com',
        team: 'platform',
        prompt_tokens: completion.usage?.prompt_tokens,
      },
      expect.objectContaining({ endpoint: '/v1/chat/completions', status: 503, user_id: 'ada@example.com' }),
    ]);
  }, 90_000);
});
