import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryCoord } from '@gw/platform';
import { createIsolatedPgDb, testDbUrl, type TestDb } from '@gw/testkit';
import { mintAdminKey } from './admin-support.js';
import { adminHeaders, bearer, startTestGateway, type TestGateway } from './helpers.js';

// The desktop-client policy: GET and PUT on both surfaces, and the write boundary that
// rejects credential-shaped values at every depth, free-text keys included.

const v1 = '/admin/v1/policies/claude-desktop';
const legacy = '/admin/claude-desktop-policy';

// Fabricated secrets of each shape, built at run time.
const repeat = (unit: string, length: number) => unit.repeat(Math.ceil(length / unit.length)).slice(0, length);
const jwt = `${Buffer.from('{"alg":"RS256"}').toString('base64url')}.${Buffer.from('{"sub":"ci-bot","exp":1900000000}').toString('base64url')}.${repeat('Qx9_', 43)}`;
const secrets: Record<string, string> = {
  'an OpenAI key': `sk-proj-${repeat('aB3dE5fG7h', 48)}`,
  'an Anthropic key': `sk-ant-api03-${repeat('Zq8Lm2Np4R', 90)}`,
  'a gateway service key': `ark_svc_${repeat('Tk7Yw1Vb3', 43)}`,
  'a bearer token': `Bearer ${repeat('h7Gk2Lp9Qz', 40)}`,
  'a private key': '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----',
  'a JWT': jwt,
  'an AWS access key': `AKIA${'IOSFODNN7EXAMPLE'}`,
  'a GitHub token': `ghp_${repeat('R4nd0mT0k3n', 36)}`,
  'a URL with credentials': 'https://ci:s3cr3t-pass@plugins.example.com/marketplace.json',
  'a random secret': 'N8fK2qLx7Rb4Tz1Wm9Yc3Vd6Hs5Pj0Ga',
};

const realisticSettings = {
  inferenceModels: [{ name: 'claude-sonnet-4-5' }, { name: 'gpt-4.1' }],
  managedMcpServers: {
    github: {
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-github'],
      env: { GITHUB_PERSONAL_ACCESS_TOKEN: '${GITHUB_PAT}' },
    },
    'internal docs': {
      url: 'https://mcp.example.com/sse',
      headers: { Authorization: 'Bearer ${DOCS_TOKEN}', 'X-Team': 'platform' },
    },
  },
  allowedPluginMarketplaces: [{ name: 'acme', source: 'github', repo: 'acme/claude-plugins', ref: 'main' }],
  chatTabEnabled: true,
  coworkEgressAllowedHosts: ['api.github.com', '*.example.com'],
};

describe('desktop-client policy', () => {
  let isolated: TestDb;
  let gateway: TestGateway;
  let replica: TestGateway;

  beforeAll(async () => {
    isolated = await createIsolatedPgDb(testDbUrl(process.env));
    const coord = new MemoryCoord();
    gateway = await startTestGateway({ db: isolated.db, coord });
    replica = await startTestGateway({ db: isolated.db, coord });
  });
  afterAll(async () => {
    await replica.close();
    await gateway.close();
    await coord(gateway).close();
    await isolated.dispose();
  });
  const coord = (test: TestGateway) => test.deps.coord;

  const put = (payload: unknown, headers: Record<string, string> = adminHeaders, url = v1) =>
    gateway.app.inject({ method: 'PUT', url, headers, payload: payload as object });
  const get = (headers: Record<string, string> = adminHeaders, url = v1) =>
    gateway.app.inject({ method: 'GET', url, headers });

  it('is disabled and empty until first written, on both surfaces', async () => {
    for (const url of [v1, legacy]) {
      const response = await get(adminHeaders, url);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ enabled: false, settings: {}, revision: 0, updatedAt: null, updatedBy: null });
    }
    expect((await get(adminHeaders, legacy)).headers.deprecation).toBe('true');
    expect((await get(adminHeaders, legacy)).headers.link).toBe(`<${v1}>; rel="successor-version"`);
  });

  it('replaces the policy, serves it from every replica, and audits the write', async () => {
    const written = await put({ enabled: true, settings: realisticSettings });
    expect(written.statusCode, written.body).toBe(200);
    expect(written.json()).toEqual({
      enabled: true,
      settings: realisticSettings,
      revision: 1,
      updatedAt: new Date(gateway.clock.now()).toISOString(),
      updatedBy: 'admin-token',
    });
    expect((await get()).json()).toMatchObject({ enabled: true, settings: realisticSettings, revision: 1 });
    expect(gateway.deps.desktopPolicy.current()).toMatchObject({ enabled: true, settings: realisticSettings });
    await replica.deps.desktopPolicy.reached((view) => view.revision === 1);
    expect(replica.deps.desktopPolicy.current().settings).toEqual(realisticSettings);

    const feed = (
      await gateway.app.inject({
        method: 'GET',
        url: '/admin/v1/audit/events?category=policies',
        headers: adminHeaders,
      })
    ).json();
    expect(feed.data[0]).toMatchObject({ action: 'desktopPolicy.put', outcome: 'success', actor: 'admin-token' });
  });

  it.each(Object.entries(secrets))(
    'rejects %s at depth and under free-text keys, naming the path but never the value',
    async (_kind, secret) => {
      const before = (await get()).json();
      const placements = [
        { managedMcpServers: { 'my server': { env: { SOME_FREE_TEXT_NAME: secret } } } },
        { managedMcpServers: { tools: { args: ['--flag', { nested: [{ deeper: { note: `prefix ${secret}` } }] }] } } },
        { allowedPluginMarketplaces: [{ source: 'url', 'whatever key': secret }] },
      ];
      for (const settings of placements) {
        for (const url of [v1, legacy]) {
          const response = await put({ enabled: true, settings }, adminHeaders, url);
          expect(response.statusCode).toBe(400);
          expect(response.json().error.code).toBe('policy_carries_credential');
          expect(response.json().error.message).toMatch(
            /^body\.settings\.(managedMcpServers|allowedPluginMarketplaces)/,
          );
          expect(response.body).not.toContain(secret.slice(0, 24));
        }
      }
      expect((await get()).json()).toEqual(before);
    },
  );

  it('rejects any literal value under a credential-naming key, and accepts device-side placeholders', async () => {
    const literal = await put({
      enabled: true,
      settings: { managedMcpServers: { db: { env: { DB_PASSWORD: 'hunter2' } } } },
    });
    expect(literal.statusCode).toBe(400);
    expect(literal.json().error.message).toContain('body.settings.managedMcpServers.db.env.DB_PASSWORD');
    const header = await put({
      enabled: true,
      settings: { managedMcpServers: { api: { headers: { 'X-Api-Key': 'plain-value' } } } },
    });
    expect(header.statusCode).toBe(400);
    const placeholders = await put({
      enabled: true,
      settings: {
        managedMcpServers: {
          db: { env: { DB_PASSWORD: '${DB_PASSWORD}' }, headers: { Authorization: 'Bearer ${API_TOKEN}' } },
        },
      },
    });
    expect(placeholders.statusCode, placeholders.body).toBe(200);
  });

  it('validates the shape: unknown fields, host names, size and depth', async () => {
    const cases: [unknown, RegExp][] = [
      [{ enabled: true, settings: { unknownSetting: true } }, /unknownSetting|Unrecognized/i],
      [{ enabled: true, settings: { coworkEgressAllowedHosts: ['https://not-a-host/'] } }, /coworkEgressAllowedHosts/],
      [{ enabled: true, settings: { inferenceModels: [{ name: 'x', extra: 1 }] } }, /inferenceModels/],
      [{ settings: {} }, /enabled/],
      [
        {
          enabled: true,
          settings: { managedMcpServers: { deep: JSON.parse(`${'{"a":'.repeat(14)}1${'}'.repeat(14)}`) } },
        },
        /deeper than 12/,
      ],
      [
        { enabled: true, settings: { allowedPluginMarketplaces: [{ blob: 'x'.repeat(70_000) }] } },
        /larger than 65536 bytes/,
      ],
    ];
    for (const [payload, message] of cases) {
      const response = await put(payload);
      expect(response.statusCode, JSON.stringify(payload).slice(0, 80)).toBe(400);
      expect(response.json().error).toMatchObject({ code: 'invalid_request', message: expect.stringMatching(message) });
    }
  });

  it('answers 409 on a stale expectedRevision and changes nothing', async () => {
    const current = (await get()).json();
    const stale = await put({ enabled: false, settings: {}, expectedRevision: current.revision - 1 });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().error.code).toBe('conflict');
    const fresh = await put({ enabled: false, settings: {}, expectedRevision: current.revision });
    expect(fresh.json()).toMatchObject({ enabled: false, settings: {}, revision: current.revision + 1 });
  });

  it('gates reads by policies:read and writes by policies:write (v1), and desktopconfig:write (legacy)', async () => {
    const reader = await mintAdminKey(gateway.app, { scopes: ['policies:read'] });
    expect((await get(bearer(reader.key))).statusCode).toBe(200);
    const refused = await put({ enabled: true, settings: {} }, bearer(reader.key));
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toMatchObject({ code: 'insufficient_scope', required_scope: 'policies:write' });

    const writer = await mintAdminKey(gateway.app, { scopes: ['policies:write'] });
    const accepted = await put({ enabled: true, settings: { chatTabEnabled: false } }, bearer(writer.key));
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json().updatedBy).toBe(`apikey:${writer.record.id}`);

    const viewer = await mintAdminKey(gateway.app, { caps: ['config:read'] });
    expect((await get(bearer(viewer.key), legacy)).statusCode).toBe(200);
    expect((await put({ enabled: true, settings: {} }, bearer(viewer.key), legacy)).statusCode).toBe(403);
    const desktopAdmin = await mintAdminKey(gateway.app, { caps: ['desktopconfig:write'] });
    expect((await put({ enabled: true, settings: {} }, bearer(desktopAdmin.key), legacy)).statusCode).toBe(200);
  });
});
