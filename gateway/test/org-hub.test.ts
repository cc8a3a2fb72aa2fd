import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  startIdentityProvider,
  type AccessTokenClaims,
  type IdentityProviderHandle,
  type MintOptions,
} from '@gw/testkit';
import { startBilledGateway, type BilledGateway } from './billing-fixture.js';
import { adminHeaders, bearer, mintClientKey, startTestGateway } from './helpers.js';

const publicUrl = 'https://gw.acme.example';
const resource = `${publicUrl}/mcp/org`;
const organizationId = 'org_acme';
const reviewSkill = {
  name: 'code-review',
  description: 'How Acme reviews code',
  content: 'Two approvals; run the linters first.',
};
const deploySkill = {
  name: 'deploy',
  description: 'How Acme deploys',
  content: 'Platform runs `make deploy-prod` after approval.',
};

const rpc = (method: string, params: Record<string, unknown> = {}, id = 1) =>
  JSON.stringify({ jsonrpc: '2.0', id, method, params });
const mcpHeaders = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

describe('the organization hub /mcp/org', () => {
  let idp: IdentityProviderHandle;
  let stack: BilledGateway;
  const clients: Client[] = [];
  const token = (claims: AccessTokenClaims = {}, options?: MintOptions) =>
    idp.mint(
      { sub: 'okta|ada', aud: resource, organizationId, issuedAt: Math.floor(stack.clock.now() / 1000), ...claims },
      options,
    );
  const post = (headers: Record<string, string>, body = rpc('tools/list'), remoteAddress = '203.0.113.10') =>
    stack.gateway.app.inject({
      method: 'POST',
      url: '/mcp/org',
      headers: { ...mcpHeaders, ...headers },
      payload: body,
      remoteAddress,
    });

  beforeAll(async () => {
    idp = await startIdentityProvider();
    stack = await startBilledGateway({ env: { GW_PUBLIC_URL: publicUrl, GW_ORG_HUB_ISSUER: idp.issuer } });
    stack.billing.orgHub.confirm(organizationId, resource);
    stack.billing.orgHub.setMember('okta|ada', { email: 'ada@acme.example', team: 'platform' });
    await stack.gateway.app.inject({
      method: 'PUT',
      url: '/admin/v1/policies/teams',
      headers: adminHeaders,
      payload: { teams: { '*': { skills: [reviewSkill] }, platform: { skills: [deploySkill] } } },
    });
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
  });
  afterAll(async () => {
    await stack?.close();
    await idp?.close();
  });

  it('publishes its protected-resource metadata and challenges an unauthenticated call with it', async () => {
    for (const url of ['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp/org']) {
      const metadata = await stack.gateway.app.inject({ method: 'GET', url });
      expect(metadata.statusCode).toBe(200);
      expect(metadata.json()).toEqual({
        resource,
        authorization_servers: [idp.issuer],
        bearer_methods_supported: ['header'],
        scopes_supported: [],
        resource_name: 'gw organization hub',
      });
    }
    const anonymous = await post({});
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.headers['www-authenticate']).toBe(
      `Bearer resource_metadata="${publicUrl}/.well-known/oauth-protected-resource"`,
    );
    expect(anonymous.json()).toMatchObject({ status: 'failure', code: 'missing_key' });
    expect((await stack.gateway.app.inject({ method: 'GET', url: '/mcp/org' })).statusCode).toBe(405);
  });

  it('serves a verified member their team’s skills through the official MCP SDK, sending billing only the subject, organization and URL', async () => {
    const baseUrl = await stack.gateway.app.listen({ port: 0, host: '127.0.0.1' });
    const accessToken = token();
    const client = new Client({ name: 'hosted-assistant', version: '1.0.0' });
    clients.push(client);
    await client.connect(
      new StreamableHTTPClientTransport(new URL('/mcp/org', baseUrl), {
        requestInit: { headers: { authorization: `Bearer ${accessToken}` } },
      }),
    );
    expect(client.getServerVersion()).toMatchObject({ name: 'gw-org-hub' });
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['gw_org_skills', 'gw_org_skill']);
    const listed = (await client.callTool({ name: 'gw_org_skills', arguments: {} })) as {
      content: Array<{ text: string }>;
    };
    expect(listed.content[0]?.text).toBe('- code-review: How Acme reviews code\n- deploy: How Acme deploys');
    const skill = (await client.callTool({ name: 'gw_org_skill', arguments: { name: 'deploy' } })) as {
      content: Array<{ text: string }>;
    };
    expect(skill.content[0]?.text).toBe(deploySkill.content);
    const missing = (await client.callTool({ name: 'gw_org_skill', arguments: { name: 'nope' } })) as {
      isError?: boolean;
    };
    expect(missing.isError).toBe(true);

    expect(stack.billing.orgHub.lookups).toContainEqual({ subject: 'okta|ada', organizationId, resource });
    expect(JSON.stringify(stack.billing.orgHub.lookups)).not.toContain(accessToken);
    expect(stack.gateway.logs.join('\n')).not.toContain(accessToken);
  });

  it('refuses tokens that are not RS256 from the issuer, for exactly this URL, with sub, iat, exp and an organization', async () => {
    const refused = async (accessToken: string, label: string) => {
      const answer = await post(bearer(accessToken));
      expect(answer.statusCode, label).toBe(401);
      expect(answer.json().code, label).toBe('invalid_token');
      expect(answer.headers['www-authenticate'], label).toContain('resource_metadata=');
    };
    await refused(token({}, { algorithm: 'ES256' }), 'ES256');
    await refused(token({}, { algorithm: 'HS256' }), 'HS256');
    await refused(token({}, { algorithm: 'none' }), 'none');
    await refused(token({}, { untrustedKey: true }), 'a key the JWKS does not publish');
    await refused(token({ issuer: 'https://evil.example' }), 'another issuer');
    await refused(token({ aud: 'https://gw.acme.example/mcp' }), 'another audience');
    await refused(token({ aud: [resource, 'https://other.example'] }), 'an audience list');
    await refused(token({ expiresIn: -120 }), 'expired');
    await refused(token({ sub: undefined }), 'no sub');
    await refused(token({ organizationId: undefined }), 'no organization');
    await refused(token({ organizationId: ' ' }), 'an empty organization');
    await refused('not.a.jwt', 'garbage');
    await refused(token({ issuedAt: Math.floor(stack.clock.now() / 1000) + 3600 }), 'issued in the future');
  });

  it('answers 403 for a member billing refuses and 503 while billing or the identity provider is out, never admitting', async () => {
    stack.billing.orgHub.setMember('okta|bob', { email: 'bob@acme.example', team: 'platform', revoked: true });
    const revoked = await post(bearer(token({ sub: 'okta|bob' })));
    expect(revoked.statusCode).toBe(403);
    expect(revoked.json().code).toBe('member_revoked');
    const stranger = await post(bearer(token({ sub: 'okta|eve' })));
    expect(stranger.json().code).toBe('membership_not_unique');

    stack.billing.failNext(1, 503, '/v1/org-hub/identity');
    const billingDown = await post(bearer(token({ sub: 'okta|carol' })));
    stack.billing.orgHub.setMember('okta|carol', { email: 'carol@acme.example', team: 'platform' });
    expect(billingDown.statusCode).toBe(503);
    expect(billingDown.json().code).toBe('billing_unavailable');
    expect((await post(bearer(token({ sub: 'okta|carol' })))).statusCode).toBe(200);

    stack.billing.orgHub.unconfirm();
    const unconfirmed = await post(bearer(token({ sub: 'okta|dan' })));
    expect(unconfirmed.statusCode).toBe(503);
    expect(unconfirmed.json().code).toBe('org_hub_unconfirmed');
    stack.billing.orgHub.confirm(organizationId, resource);
  });

  it('lets a presented client key take precedence, and throttles token verification per address with Retry-After', async () => {
    const { key } = await mintClientKey(stack.gateway.app, { user: 'erin@acme.example', team: 'data' });
    const withKey = await post(
      { 'x-gw-api-key': key, authorization: 'Bearer not-a-token-at-all' },
      rpc('tools/call', { name: 'gw_org_skills', arguments: {} }),
    );
    expect(withKey.statusCode).toBe(200);
    expect(withKey.json().result.content[0].text).toBe('- code-review: How Acme reviews code');

    let throttled;
    for (let attempt = 0; attempt < 130 && !throttled; attempt += 1) {
      const answer = await post(bearer(token({ extra: { jti: `attempt-${attempt}` } })), rpc('ping'), '198.51.100.77');
      if (answer.statusCode === 429) throttled = answer;
    }
    expect(throttled?.json().code).toBe('rate_limited');
    expect(Number(throttled?.headers['retry-after'])).toBeGreaterThan(0);
    // Another address is not throttled, and the same token again is answered from the verification cache.
    expect((await post(bearer(token()), rpc('ping'), '198.51.100.78')).statusCode).toBe(200);
  });

  it('refuses service keys, and a developer this gateway revoked at once, whatever billing cached', async () => {
    const service = (
      await stack.gateway.app.inject({
        method: 'POST',
        url: '/admin/v1/keys',
        headers: adminHeaders,
        payload: { type: 'service', name: 'bot', team: 'platform' },
      })
    ).json().key as string;
    const refused = await post(bearer(service));
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('service_key_not_allowed');

    stack.billing.orgHub.setMember('okta|gus', { email: 'gus@acme.example', team: 'platform' });
    expect((await post(bearer(token({ sub: 'okta|gus' })))).statusCode).toBe(200);
    expect(
      (
        await stack.gateway.app.inject({
          method: 'POST',
          url: '/admin/v1/users/revoked',
          headers: adminHeaders,
          payload: { email: 'gus@acme.example' },
        })
      ).statusCode,
    ).toBe(201);
    const revoked = await post(bearer(token({ sub: 'okta|gus', extra: { jti: 'after-revocation' } })));
    expect(revoked.statusCode).toBe(403);
    expect(revoked.json().code).toBe('user_deactivated');
  });

  it('names the hub in /connect/policy', async () => {
    const { key } = await mintClientKey(stack.gateway.app, { user: 'fay@acme.example', team: 'platform' });
    const policy = await stack.gateway.app.inject({ method: 'GET', url: '/connect/policy', headers: bearer(key) });
    expect(policy.json().mcp).toEqual({ org: { url: resource } });
  });
});

describe('/mcp/org while the identity provider’s keys cannot be fetched', () => {
  it('fails closed with 503 identity_provider_unavailable, and admits once discovery answers again', async () => {
    const idp = await startIdentityProvider();
    const stack = await startBilledGateway({ env: { GW_PUBLIC_URL: publicUrl, GW_ORG_HUB_ISSUER: idp.issuer } });
    try {
      stack.billing.orgHub.confirm(organizationId, resource);
      stack.billing.orgHub.setMember('okta|ada', { email: 'ada@acme.example', team: 'platform' });
      const accessToken = idp.mint({
        sub: 'okta|ada',
        aud: resource,
        organizationId,
        issuedAt: Math.floor(stack.clock.now() / 1000),
      });
      const call = () =>
        stack.gateway.app.inject({
          method: 'POST',
          url: '/mcp/org',
          headers: { ...mcpHeaders, ...bearer(accessToken) },
          payload: rpc('ping'),
        });
      idp.failKeyDiscovery(true);
      const down = await call();
      expect(down.statusCode).toBe(503);
      expect(down.json().code).toBe('identity_provider_unavailable');
      expect(down.headers['retry-after']).toBeDefined();
      expect(stack.billing.orgHub.lookups).toEqual([]);
      idp.failKeyDiscovery(false);
      expect((await call()).statusCode).toBe(200);
    } finally {
      await stack.close();
      await idp.close();
    }
  });
});

describe('/mcp/org without an identity lane', () => {
  it('serves client keys, refuses access tokens, publishes no metadata and /connect/policy names no hub', async () => {
    const gateway = await startTestGateway();
    try {
      const { key } = await mintClientKey(gateway.app, { user: 'ada@example.com', team: 'platform' });
      const withKey = await gateway.app.inject({
        method: 'POST',
        url: '/mcp/org',
        headers: { ...mcpHeaders, ...bearer(key) },
        payload: rpc('tools/list'),
      });
      expect(withKey.json().result.tools).toHaveLength(2);
      const withToken = await gateway.app.inject({
        method: 'POST',
        url: '/mcp/org',
        headers: { ...mcpHeaders, authorization: 'Bearer eyJhbGciOiJSUzI1NiJ9.e30.sig' },
        payload: rpc('tools/list'),
      });
      expect(withToken.statusCode).toBe(401);
      expect(withToken.headers['www-authenticate']).toBe('Bearer realm="gw"');
      expect(
        (await gateway.app.inject({ method: 'GET', url: '/.well-known/oauth-protected-resource' })).statusCode,
      ).toBe(404);
      expect(
        (await gateway.app.inject({ method: 'GET', url: '/connect/policy', headers: bearer(key) })).json(),
      ).not.toHaveProperty('mcp');
    } finally {
      await gateway.close();
    }
  });
});
