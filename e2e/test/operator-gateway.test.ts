import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  HttpKubeApi,
  HttpManagementClient,
  Operator,
  OperatorMetrics,
  serviceUrl,
  systemTimers,
  type KubeObject,
} from '@gw/operator';
import {
  generateCertificates,
  installGwCrds,
  recordingLogger,
  startKubeTestServer,
  watchUntil,
  type KubeTestServer,
  type ObjectsByName,
} from '@gw/operator/kube-test-server';
import { startOpenAiSimulator, type SimulatorHandle, createIsolatedPgDb, testDbUrl } from '@gw/testkit';
import { adminRequest } from './gateway-stack.js';
import { freePort, images, requireImages } from './containers.js';
import {
  PartitionableKubeApi,
  runDeploymentContainer,
  startTlsFront,
  type DeploymentContainer,
} from './operator-support.js';

// Issue 9 item 7: the operator against the real CRD API server and a real gateway process on Postgres. The six
// resources become gateway state through Management API v1; a minted service key serves the official OpenAI SDK;
// a rotated Secret re-applies the provider key; drift made through the admin API is corrected on the next resync;
// of two operator replicas one leads, and the standby takes over when the leader is cut off; deletion revokes and
// clears. The test plays the kubelet: it runs the container the gateway Deployment describes from the image
// `npm run image` built (image, args, env, Secret references, probes, volumes, security context), so a wrong image,
// argument, variable or probe path in the generated Deployment fails here.

const namespace = 'gw-e2e';
const api = 'gw.dev/v1alpha1';
const resyncMs = 2_000;
const lease = {
  namespace: 'gw-system',
  name: 'gw-operator-leader',
  leaseDurationMs: 4_000,
  renewDeadlineMs: 3_000,
  retryPeriodMs: 500,
};

type Conditioned = KubeObject & {
  status?: {
    observedGeneration?: number;
    keyId?: string;
    conditions?: { type: string; status: string; reason: string; message: string }[];
  };
};

describe('the operator drives a real gateway', () => {
  let server: KubeTestServer;
  let kube: HttpKubeApi;
  let database: Awaited<ReturnType<typeof createIsolatedPgDb>>;
  let provider: SimulatorHandle;
  let front: { url: string; close(): Promise<void> };
  let caFile = '';
  let gateway: DeploymentContainer | undefined;
  let workDir: string;
  let adminToken = '';
  const gatewayUrls = new Map<string, string>();
  const replicas: {
    identity: string;
    operator: Operator;
    api: PartitionableKubeApi;
    metrics: OperatorMetrics;
    log: ReturnType<typeof recordingLogger>;
  }[] = [];

  const ref = (kind: string, name: string, apiVersion = api) => ({ apiVersion, kind, namespace, name });
  const get = async (kind: string, name: string, apiVersion = api): Promise<Conditioned | null> => {
    const object = await kube.get(ref(kind, name, apiVersion));
    return object === null ? null : { ...object, status: object.status as Conditioned['status'] };
  };
  const create = (kind: string, name: string, spec: Record<string, unknown>) =>
    kube.create({ apiVersion: api, kind, metadata: { name, namespace }, spec });
  const putSecret = async (name: string, data: Record<string, string>) => {
    const body = {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name, namespace },
      type: 'Opaque',
      data: Object.fromEntries(
        Object.entries(data).map(([key, value]) => [key, Buffer.from(value).toString('base64')]),
      ),
    };
    const existing = await kube.get(ref('Secret', name, 'v1'));
    return existing
      ? kube.replace({ ...body, metadata: { ...body.metadata, resourceVersion: existing.metadata.resourceVersion } })
      : kube.create(body);
  };
  const secretValue = async (name: string, key: string) =>
    Buffer.from(
      ((await kube.get(ref('Secret', name, 'v1')))?.data as Record<string, string>)[key] ?? '',
      'base64',
    ).toString();
  /** `status:reason` of the Ready condition, or `stale` until the status observes the object's generation. */
  const readiness = (object: KubeObject | undefined) => {
    const status = object?.status as Conditioned['status'];
    const condition = status?.conditions?.find((candidate) => candidate.type === 'Ready');
    return status?.observedGeneration === object?.metadata.generation
      ? `${condition?.status}:${condition?.reason}`
      : 'stale';
  };
  /** The reasons of the Events about one object, once per time each was recorded. */
  const reasonsIn = (events: ObjectsByName, kind: string, name: string) =>
    [...events.values()]
      .filter(
        (event) =>
          (event.involvedObject as { kind: string; name: string }).kind === kind &&
          (event.involvedObject as { name: string }).name === name,
      )
      .flatMap((event) => Array<string>((event.count as number | undefined) ?? 1).fill(event.reason as string));
  /** Resolves once a watch on the namespace's objects of `kind` sees `condition` hold. */
  const watchFor = (
    kind: string,
    what: string,
    condition: (objects: ObjectsByName) => boolean,
    signal: AbortSignal,
    apiVersion = api,
  ) => watchUntil(kube, { apiVersion, kind, namespace }, what, condition, signal);
  const untilReady = (kind: string, name: string, expected: string, signal: AbortSignal) =>
    watchFor(kind, `${kind} ${name} ${expected}`, (objects) => readiness(objects.get(name)) === expected, signal);
  const untilEvent = (kind: string, name: string, reason: string, times: number, signal: AbortSignal) =>
    watchFor(
      'Event',
      `${times} ${reason} Event(s) on ${kind} ${name}`,
      (events) => reasonsIn(events, kind, name).filter((candidate) => candidate === reason).length >= times,
      signal,
      'v1',
    );
  const reasons = async (kind: string, name: string) =>
    reasonsIn(
      new Map((await kube.list('v1', 'Event', namespace)).items.map((event) => [event.metadata.name, event])),
      kind,
      name,
    );
  const leaseSpec = (objects: ObjectsByName) =>
    (objects.get(lease.name)?.spec ?? {}) as { holderIdentity?: string; renewTime?: string };
  const untilLease = (what: string, condition: (spec: ReturnType<typeof leaseSpec>) => boolean, signal: AbortSignal) =>
    watchUntil(
      kube,
      { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', namespace: lease.namespace },
      what,
      (objects) => condition(leaseSpec(objects)),
      signal,
    );
  const admin = (method: string, path: string, body?: unknown) =>
    adminRequest({ url: gateway?.url ?? '', token: adminToken }, method, path, body);
  const holder = async () =>
    (
      (
        await kube.get({
          apiVersion: 'coordination.k8s.io/v1',
          kind: 'Lease',
          namespace: lease.namespace,
          name: lease.name,
        })
      )?.spec as { holderIdentity?: string } | undefined
    )?.holderIdentity ?? '';
  const renewTime = async () =>
    (
      (
        await kube.get({
          apiVersion: 'coordination.k8s.io/v1',
          kind: 'Lease',
          namespace: lease.namespace,
          name: lease.name,
        })
      )?.spec as { renewTime?: string } | undefined
    )?.renewTime ?? '';
  const leading = async (metrics: OperatorMetrics) => (await metrics.leader.get()).values[0]?.value ?? 0;

  beforeAll(async () => {
    requireImages(images.component);
    workDir = await mkdtemp(join(tmpdir(), 'gw-operator-e2e-'));
    [server, database, provider] = await Promise.all([
      startKubeTestServer(),
      createIsolatedPgDb(testDbUrl(process.env)),
      startOpenAiSimulator({ apiKey: ['sk-first-0123456789', 'sk-rotated-0123456789'] }),
    ]);
    await installGwCrds(server.kubeConfig);
    kube = new HttpKubeApi(server.kubeConfig);
    const certificates = await generateCertificates(await mkdtemp(join(workDir, 'tls-')));
    caFile = certificates.caFile;
    // The gateway container runs as 65532 and reads the CA (public) through a read-only mount.
    await chmod(caFile, 0o644);
    front = await startTlsFront(provider.url, certificates);

    for (const identity of ['operator-a', 'operator-b']) {
      const partitionable = new PartitionableKubeApi(new HttpKubeApi(server.kubeConfig));
      const metrics = new OperatorMetrics();
      const log = recordingLogger(identity);
      const operator = new Operator({
        api: partitionable,
        timers: systemTimers,
        logger: log.logger,
        metrics,
        namespaces: [namespace],
        resyncMs,
        leaderElection: { ...lease, identity },
        // In a cluster the operator reaches the gateway Service; here the Service URL maps to the local process.
        clientFactory: (baseUrl, bearer) =>
          new HttpManagementClient({ baseUrl: gatewayUrls.get(baseUrl) ?? baseUrl, bearer, timeoutMs: 5_000 }),
      });
      replicas.push({ identity, operator, api: partitionable, metrics, log });
      await operator.start();
    }
  }, 180_000);

  afterAll(async () => {
    for (const { operator, api: partitionable } of replicas) {
      partitionable.heal();
      await operator.stop();
    }
    await gateway?.stop();
    await Promise.all([front?.close(), provider?.close(), server?.stop(), database?.dispose()]);
    await rm(workDir, { recursive: true, force: true });
  }, 60_000);

  it('elects exactly one of two replicas', async ({ signal }) => {
    await untilLease('a Lease holder', (spec) => /^operator-[ab]$/.test(spec.holderIdentity ?? ''), signal);
    const holding = await holder();
    expect(holding).toMatch(/^operator-[ab]$/);
    await replicas.find((replica) => replica.identity === holding)!.log.logged('became leader', 1, signal);
    const leaders = await Promise.all(
      replicas.map(async ({ identity, metrics }) => [identity, await leading(metrics)] as const),
    );
    expect(leaders.filter(([, value]) => value === 1).map(([identity]) => identity)).toEqual([await holder()]);
  });

  it('runs the Gateway and mints its own scoped admin key once the gateway serves', async ({ signal }) => {
    await putSecret('gw-database', {
      url: `${database.url}?options=${encodeURIComponent(`-c search_path=${database.schema}`)}`,
    });
    await create('Gateway', 'gw', {
      image: { repository: images.repository, pullPolicy: 'Never' },
      version: images.version,
      publicUrl: 'https://gw.example.com',
      database: { urlSecretRef: { name: 'gw-database', key: 'url' } },
      components: {
        gateway: {
          env: [
            { name: 'GW_ALLOW_PRIVATE_UPSTREAMS', value: 'true' },
            { name: 'NODE_EXTRA_CA_CERTS', value: caFile },
            { name: 'GW_LOG_LEVEL', value: 'warn' },
          ],
        },
        optimizer: { enabled: false },
        evidence: { enabled: false },
      },
    });
    await watchFor('Deployment', 'Deployment gw-gateway', (objects) => objects.has('gw-gateway'), signal, 'apps/v1');
    await untilReady('Gateway', 'gw', 'False:RollingOut', signal);

    // The kubelet's part: run the container the Deployment declares (generated Secrets included).
    gateway = await runDeploymentContainer(kube, (await get('Deployment', 'gw-gateway', 'apps/v1'))!, {
      listen: { variable: 'GW_PORT', port: await freePort() },
      readOnlyMounts: [caFile],
    });
    gatewayUrls.set(serviceUrl((await get('Gateway', 'gw'))!, 'gateway'), gateway.url);
    adminToken = await secretValue('gw-admin-token', 'token');

    await untilReady('Gateway', 'gw', 'True:Available', signal);
    const keySecret = await kube.get(ref('Secret', 'gw-operator-key', 'v1'));
    const adminKeys = await admin('GET', '/admin/v1/admin-keys');
    const record = (adminKeys.body.keys as { id: string; scopes: string[]; status: string }[]).find(
      (key) => key.id === keySecret?.metadata.annotations?.['gw.dev/admin-key-id'],
    );
    expect(record).toMatchObject({
      status: 'active',
      scopes: expect.arrayContaining([
        'providers:write',
        'routing:write',
        'users:write',
        'keys:write',
        'policies:write',
      ]),
    });
    expect(record?.scopes).not.toContain('admin-keys:write');
  });

  it('applies the six resources: the gateway shows the provider key, routing, cap, service key and desktop policy', async ({
    signal,
  }) => {
    await putSecret('openai-key', { apiKey: 'sk-first-0123456789\n' });
    await putSecret('cap-alerts', { url: 'http://127.0.0.1:9/hooks/T000/B000/XXXX' });
    await create('ProviderKey', 'openai', {
      gatewayRef: { name: 'gw' },
      provider: 'openai',
      type: 'openai',
      baseUrl: `${front.url}/v1`,
      secretRef: { name: 'openai-key', key: 'apiKey' },
    });
    await create('RoutingConfig', 'routing', {
      gatewayRef: { name: 'gw' },
      defaultProvider: 'openai',
      routing: { mode: 'fallback', targets: [{ provider: 'openai', retry: { attempts: 1 } }] },
      aliases: [{ name: 'fast', model: 'gpt-4o-mini' }],
      models: [
        {
          name: 'gpt-4o-mini',
          inputUsdPerMillionTokens: '0.15',
          outputUsdPerMillionTokens: '0.60',
          maxOutputTokens: 16384,
        },
      ],
    });
    await create('UserCap', 'ada', {
      gatewayRef: { name: 'gw' },
      user: 'ada@example.com',
      monthlyTokens: 200000,
      maxUsd: '25.00',
      softUsd: '20.00',
      alerts: { thresholdsPercent: [80, 100], webhookSecretRef: { name: 'cap-alerts', key: 'url' } },
    });
    await create('ServiceKey', 'ci-bot', {
      gatewayRef: { name: 'gw' },
      name: 'ci-bot',
      team: 'platform',
      monthlyBudgetUsd: '50.00',
      secretName: 'ci-bot-key',
    });
    await create('DesktopPolicy', 'desktop', { gatewayRef: { name: 'gw' }, enabled: true, settings: desktopSettings });
    for (const [kind, name] of [
      ['ProviderKey', 'openai'],
      ['RoutingConfig', 'routing'],
      ['UserCap', 'ada'],
      ['ServiceKey', 'ci-bot'],
      ['DesktopPolicy', 'desktop'],
    ] as const) {
      await untilReady(kind, name, 'True:Applied', signal);
    }

    const providers = (await admin('GET', '/admin/v1/providers')).body.providers;
    expect(providers).toEqual([
      expect.objectContaining({
        slug: 'openai',
        type: 'openai',
        baseUrl: `${front.url}/v1`,
        apiKey: 'sk-first-0123456789',
      }),
    ]);
    expect((await admin('GET', '/admin/v1/routing')).body).toEqual({
      defaultProvider: 'openai',
      defaultModel: null,
      cache: null,
      config: {
        mode: 'fallback',
        onStatusCodes: [429, 500, 502, 503, 504],
        targets: [{ provider: 'openai', retry: { attempts: 1, onStatusCodes: [429, 502, 503, 504] } }],
      },
    });
    expect((await admin('GET', '/admin/v1/routing/aliases')).body).toEqual({
      aliases: { fast: { provider: 'openai', model: 'gpt-4o-mini' } },
    });
    expect((await admin('GET', '/admin/v1/routing/models')).body.models).toEqual({
      'gpt-4o-mini': {
        family: 'openai',
        inputPerMTok: 0.15,
        outputPerMTok: 0.6,
        cacheReadPerMTok: 0.15,
        cacheWritePerMTok: 0.15,
        maxOutputTokens: 16384,
      },
    });
    const cap = await admin('GET', '/admin/v1/users/ada%40example.com/limits');
    expect(cap.body).toMatchObject({
      monthlyTokens: 200000,
      maxUsd: 25,
      softUsd: 20,
      reset: 'monthly',
      alerts: { thresholdsPercent: [80, 100], webhookConfigured: true },
    });
    expect(JSON.stringify(cap.body)).not.toContain('127.0.0.1:9');
    const keyId = (await get('ServiceKey', 'ci-bot'))?.status?.keyId ?? '';
    expect((await admin('GET', `/admin/v1/keys/${keyId}`)).body).toMatchObject({
      type: 'service',
      name: 'ci-bot',
      team: 'platform',
      monthlyBudgetUsd: 50,
      status: 'active',
    });
    expect(await secretValue('ci-bot-key', 'apiKey')).toMatch(/^ark_svc_/);
    expect((await admin('GET', '/admin/v1/policies/claude-desktop')).body).toMatchObject({
      enabled: true,
      settings: desktopSettings,
      updatedBy: expect.stringMatching(/^apikey:/),
    });
  });

  it('serves the official OpenAI SDK with the minted service key', async () => {
    const client = new OpenAI({
      apiKey: await secretValue('ci-bot-key', 'apiKey'),
      baseURL: `${gateway?.url ?? ''}/v1`,
      maxRetries: 0,
    });
    const completion = await client.chat.completions.create({
      model: 'fast',
      messages: [{ role: 'user', content: 'hello from CI' }],
    });
    expect(completion.choices[0]?.message.content).toContain('Simulated reply');
    const upstream = provider.requests.at(-1);
    expect(upstream?.headers.authorization).toBe('Bearer sk-first-0123456789');
    expect((upstream?.json as { model: string }).model).toBe('gpt-4o-mini');
  });

  it('re-applies the provider key when its Secret rotates', async ({ signal }) => {
    await putSecret('openai-key', { apiKey: 'sk-rotated-0123456789' });
    // The operator records the Event once the gateway took the rotated key.
    await untilEvent('ProviderKey', 'openai', 'SecretRotated', 1, signal);
    expect(((await admin('GET', '/admin/v1/providers')).body.providers as { apiKey: string }[])[0]?.apiKey).toBe(
      'sk-rotated-0123456789',
    );
    expect(await reasons('ProviderKey', 'openai')).toContain('SecretRotated');
    const client = new OpenAI({
      apiKey: await secretValue('ci-bot-key', 'apiKey'),
      baseURL: `${gateway?.url ?? ''}/v1`,
      maxRetries: 0,
    });
    await client.chat.completions.create({ model: 'fast', messages: [{ role: 'user', content: 'after rotation' }] });
    expect(provider.requests.at(-1)?.headers.authorization).toBe('Bearer sk-rotated-0123456789');
  });

  it('corrects drift made through the admin API on the next resync', async ({ signal }) => {
    const keyId = (await get('ServiceKey', 'ci-bot'))?.status?.keyId ?? '';
    expect((await admin('PUT', '/admin/v1/routing', { defaultProvider: null, config: null })).status).toBe(200);
    expect((await admin('PUT', '/admin/v1/routing/aliases', { aliases: {} })).status).toBe(200);
    expect(
      (await admin('PATCH', '/admin/v1/users/ada%40example.com/limits', { maxUsd: 999, alerts: null })).status,
    ).toBe(200);
    expect((await admin('PATCH', `/admin/v1/keys/${keyId}`, { monthlyBudgetUsd: 5000 })).status).toBe(200);
    expect((await admin('PUT', '/admin/v1/policies/claude-desktop', { enabled: false, settings: {} })).status).toBe(
      200,
    );
    expect(
      (await admin('PUT', '/admin/v1/providers/openai/key', { apiKey: 'sk-someone-else', baseUrl: `${front.url}/v1` }))
        .status,
    ).toBe(200);

    // The operator records a DriftCorrected Event once its corrective write for the resource has landed.
    for (const [kind, name] of [
      ['RoutingConfig', 'routing'],
      ['UserCap', 'ada'],
      ['ServiceKey', 'ci-bot'],
      ['DesktopPolicy', 'desktop'],
      ['ProviderKey', 'openai'],
    ] as const) {
      await untilEvent(kind, name, 'DriftCorrected', 1, signal);
    }
    expect([
      (await admin('GET', '/admin/v1/routing')).body.defaultProvider,
      Object.keys((await admin('GET', '/admin/v1/routing/aliases')).body.aliases as object),
      (await admin('GET', '/admin/v1/users/ada%40example.com/limits')).body.maxUsd,
      (
        (await admin('GET', '/admin/v1/users/ada%40example.com/limits')).body.alerts as {
          webhookConfigured?: boolean;
        } | null
      )?.webhookConfigured,
      (await admin('GET', `/admin/v1/keys/${keyId}`)).body.monthlyBudgetUsd,
      (await admin('GET', '/admin/v1/policies/claude-desktop')).body.enabled,
      ((await admin('GET', '/admin/v1/providers')).body.providers as { apiKey: string }[])[0]?.apiKey,
    ]).toEqual(['openai', ['fast'], 25, true, 50, true, 'sk-rotated-0123456789']);
  });

  it('hands over to the standby when the leader is cut off from the API server, and the new leader acts', async ({
    signal,
  }) => {
    const leaderIdentity = await holder();
    const leader = replicas.find((replica) => replica.identity === leaderIdentity)!;
    const standby = replicas.find((replica) => replica.identity !== leaderIdentity)!;
    leader.api.partition();
    await untilLease(
      `the Lease held by ${standby.identity}`,
      (spec) => spec.holderIdentity === standby.identity,
      signal,
    );
    await standby.log.logged('became leader', 1, signal);
    expect(await leading(standby.metrics)).toBe(1);
    await leader.log.logged('lost leadership', 1, signal);
    expect(await leading(leader.metrics)).toBe(0);

    // The new leader applies a change to the spec, and corrects drift, on its own.
    const cap = (await get('UserCap', 'ada'))!;
    await kube.replace({ ...cap, spec: { ...(cap.spec as object), maxUsd: '30.00' } });
    // The status observes the new generation once the gateway took it.
    await untilReady('UserCap', 'ada', 'True:Applied', signal);
    expect((await admin('GET', '/admin/v1/users/ada%40example.com/limits')).body.maxUsd).toBe(30);
    const corrected = (await reasons('RoutingConfig', 'routing')).filter((reason) => reason === 'DriftCorrected');
    expect((await admin('PUT', '/admin/v1/routing', { defaultProvider: 'rogue', config: null })).status).toBe(200);
    await untilEvent('RoutingConfig', 'routing', 'DriftCorrected', corrected.length + 1, signal);
    expect((await admin('GET', '/admin/v1/routing')).body.defaultProvider).toBe('openai');

    // Healed, the old leader stays a standby: the Lease is held and renewed (two renewals: it has tried meanwhile).
    leader.api.heal();
    for (let renewal = 0; renewal < 2; renewal += 1) {
      const renewed = await renewTime();
      await untilLease(`a Lease renewal after ${renewed}`, (spec) => (spec.renewTime ?? '') !== renewed, signal);
    }
    expect(await holder()).toBe(standby.identity);
    expect(await leading(leader.metrics)).toBe(0);
  });

  it('revokes and clears the gateway state when the resources are deleted', async ({ signal }) => {
    const keyId = (await get('ServiceKey', 'ci-bot'))?.status?.keyId ?? '';
    const serviceKey = await secretValue('ci-bot-key', 'apiKey');
    for (const [kind, name] of [
      ['ProviderKey', 'openai'],
      ['RoutingConfig', 'routing'],
      ['UserCap', 'ada'],
      ['ServiceKey', 'ci-bot'],
      ['DesktopPolicy', 'desktop'],
    ] as const) {
      await kube.delete(ref(kind, name));
    }
    for (const [kind, name] of [
      ['ProviderKey', 'openai'],
      ['RoutingConfig', 'routing'],
      ['UserCap', 'ada'],
      ['ServiceKey', 'ci-bot'],
      ['DesktopPolicy', 'desktop'],
    ] as const) {
      await watchFor(kind, `${kind} ${name} gone`, (objects) => !objects.has(name), signal);
      expect(await get(kind, name)).toBeNull();
    }
    expect((await admin('GET', '/admin/v1/providers')).body.providers).toEqual([]);
    expect((await admin('GET', '/admin/v1/routing')).body).toEqual({
      defaultProvider: null,
      defaultModel: null,
      cache: null,
      config: null,
    });
    expect((await admin('GET', '/admin/v1/routing/aliases')).body.aliases).toEqual({});
    expect((await admin('GET', '/admin/v1/routing/models')).body.models).toEqual({});
    expect((await admin('GET', '/admin/v1/users/ada%40example.com/limits')).status).toBe(404);
    expect((await admin('GET', `/admin/v1/keys/${keyId}`)).body.status).toBe('revoked');
    expect((await admin('GET', '/admin/v1/policies/claude-desktop')).body).toMatchObject({
      enabled: false,
      settings: {},
    });
    const client = new OpenAI({ apiKey: serviceKey, baseURL: `${gateway?.url ?? ''}/v1`, maxRetries: 0 });
    await expect(
      client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'still there?' }] }),
    ).rejects.toMatchObject({ status: 401 });
  });
});

const desktopSettings = {
  inferenceModels: [{ name: 'fast' }],
  managedMcpServers: {
    github: {
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-github'],
      env: { GITHUB_PERSONAL_ACCESS_TOKEN: '${GITHUB_PAT}' },
    },
  },
  chatTabEnabled: true,
  coworkEgressAllowedHosts: ['api.github.com'],
};
