import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAuthorizationServer, type AuthorizationServerHandle } from '@gw/testkit';
import { adminHeaders, bearer, mintClientKey, startTestGateway, type TestGateway } from './helpers.js';
import { startRemoteMcpServer, type RemoteMcpServer } from './remote-mcp-server.js';

const rpc = (method: string, params: Record<string, unknown> = {}) =>
  JSON.stringify({ jsonrpc: '2.0', id: 1, method, params });
const mcpHeaders = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

describe('authorizing the organization hub’s connectors (the contract /connect/mcp-oauth/*, connectors/authorize, revoke)', () => {
  let vendor: AuthorizationServerHandle;
  let wiki: RemoteMcpServer;
  let gateway: TestGateway;
  let ada: string;
  let bob: string;
  const admin = (url: string, payload?: Record<string, unknown>) =>
    gateway.app.inject({ method: 'POST', url, headers: adminHeaders, ...(payload ? { payload } : {}) });
  const connect = (key: string, url: string, payload: Record<string, unknown>) =>
    gateway.app.inject({ method: 'POST', url, headers: bearer(key), payload });
  const hub = (key: string, body: string) =>
    gateway.app.inject({ method: 'POST', url: '/mcp/org', headers: { ...mcpHeaders, ...bearer(key) }, payload: body });
  /** The browser: open the authorization URL, follow the vendor's redirect back to the gateway's callback. */
  const browse = async (authorizationUrl: string) => {
    const consent = await fetch(authorizationUrl, { redirect: 'manual' });
    const back = new URL(consent.headers.get('location') as string);
    return gateway.app.inject({ method: 'GET', url: `${back.pathname}${back.search}` });
  };

  beforeAll(async () => {
    vendor = await startAuthorizationServer();
    wiki = await startRemoteMcpServer({ authorizationServer: vendor });
    gateway = await startTestGateway({ env: { GW_ALLOW_PRIVATE_UPSTREAMS: 'true' } });
    ada = (await mintClientKey(gateway.app, { user: 'ada@acme.example', team: 'platform' })).key;
    bob = (await mintClientKey(gateway.app, { user: 'bob@acme.example', team: 'platform' })).key;
    await gateway.app.inject({
      method: 'PUT',
      url: '/admin/v1/policies/claude-desktop',
      headers: adminHeaders,
      payload: { enabled: true, settings: { managedMcpServers: { wiki: { type: 'http', url: wiki.url } } } },
    });
  });
  afterAll(async () => {
    await gateway?.close();
    await wiki?.close();
    await vendor?.close();
  });

  it('lets an administrator authorize the hub, after which the mirror lists the connector’s tools', async () => {
    expect((await admin('/admin/v1/policies/claude-desktop/connectors/sync')).json().mcpHub.servers).toEqual([
      expect.objectContaining({ name: 'wiki', outcome: 'needs-auth' }),
    ]);
    const started = await admin('/admin/v1/policies/claude-desktop/connectors/authorize', { name: 'wiki' });
    expect(started.statusCode).toBe(200);
    const authorizationUrl = new URL(started.json().authorizationUrl);
    expect(authorizationUrl.origin).toBe(vendor.issuer);
    expect(Object.fromEntries(authorizationUrl.searchParams)).toMatchObject({
      response_type: 'code',
      code_challenge_method: 'S256',
      resource: wiki.url,
      redirect_uri: 'http://localhost:80/connect/mcp-oauth/callback',
    });
    expect(JSON.stringify(started.json())).not.toMatch(/access_token/);

    vendor.signInAs('it-admin');
    const done = await browse(started.json().authorizationUrl);
    expect(done.statusCode).toBe(200);
    expect(done.headers['cache-control']).toBe('no-store');
    expect(done.body).toContain('authorized for wiki');
    const round = (await admin('/admin/v1/policies/claude-desktop/connectors/sync')).json().mcpHub;
    expect(round.servers).toEqual([expect.objectContaining({ name: 'wiki', outcome: 'ok', toolCount: 1 })]);
    expect(
      (await hub(ada, rpc('tools/list'))).json().result.tools.map((tool: { name: string }) => tool.name),
    ).toContain('wiki__search_docs');
  });

  it('relays a developer’s calls only under their own grant, claimed with the code the callback showed', async () => {
    const before = (
      await hub(ada, rpc('tools/call', { name: 'wiki__search_docs', arguments: { query: 'oncall' } }))
    ).json().result;
    expect(before.isError).toBe(true);
    expect(before.content[0].text).toContain('/connect/mcp-oauth/authorize');

    const started = await connect(ada, '/connect/mcp-oauth/authorize', { name: 'wiki' });
    expect(started.statusCode).toBe(200);
    vendor.signInAs('ada-at-vendor');
    const page = await browse(started.json().authorizationUrl);
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/plain/);
    const claimCode = /Claim code: ([A-Z0-9]{12})/.exec(page.body)?.[1] as string;
    expect(claimCode).toHaveLength(12);

    expect((await connect(bob, '/connect/mcp-oauth/complete', { name: 'wiki', claimCode })).statusCode).toBe(404);
    const completed = await connect(ada, '/connect/mcp-oauth/complete', { name: 'wiki', claimCode });
    expect(completed.json()).toEqual({ status: 'ok', user: 'ada@acme.example' });
    expect((await connect(ada, '/connect/mcp-oauth/complete', { name: 'wiki', claimCode })).json()).toMatchObject({
      status: 'failure',
      code: 'claim_not_found',
    });

    const after = (
      await hub(ada, rpc('tools/call', { name: 'wiki__search_docs', arguments: { query: 'oncall' } }))
    ).json().result;
    expect(after).toEqual({
      content: [{ type: 'text', text: '3 pages match "oncall": deploy.md, review.md, oncall.md (as ada-at-vendor)' }],
    });
    // Bob did not authorize: he never rides on the hub's or Ada's grant.
    expect(
      (await hub(bob, rpc('tools/call', { name: 'wiki__search_docs', arguments: { query: 'x' } }))).json().result
        .isError,
    ).toBe(true);
    const stored = JSON.stringify((await gateway.deps.db.query('SELECT * FROM gw_mcp_grants')).rows);
    expect(stored).not.toContain('ada-at-vendor');
    expect(stored).toContain('user:ada@acme.example');
  });

  it('redirects to the CLI’s loopback listener with the claim code and the hash of its nonce', async () => {
    const nonce = 'n'.repeat(43);
    const started = await connect(ada, '/connect/mcp-oauth/authorize', {
      name: 'wiki',
      loopbackPort: 48123,
      loopbackNonce: nonce,
    });
    expect(started.json()).toMatchObject({ loopbackPort: 48123 });
    const back = await browse(started.json().authorizationUrl);
    expect(back.statusCode).toBe(302);
    expect(back.headers['cache-control']).toBe('no-store');
    expect(back.body).toBe('');
    const location = new URL(back.headers.location as string);
    expect(`${location.origin}${location.pathname}`).toBe('http://127.0.0.1:48123/callback');
    expect(location.searchParams.get('nonce')).toBe(createHash('sha256').update(nonce).digest('base64url'));
    expect(location.searchParams.get('claim')).toMatch(/^[A-Z0-9]{12}$/);
  });

  it('refuses what does not fit: half a loopback, an unknown connector, a used or unknown state, a denied consent, a service key', async () => {
    expect((await connect(ada, '/connect/mcp-oauth/authorize', { name: 'wiki', loopbackPort: 48123 })).statusCode).toBe(
      400,
    );
    expect(
      (
        await connect(ada, '/connect/mcp-oauth/authorize', {
          name: 'wiki',
          loopbackPort: 80,
          loopbackNonce: 'n'.repeat(43),
        })
      ).statusCode,
    ).toBe(400);
    expect((await connect(ada, '/connect/mcp-oauth/authorize', { name: 'nope' })).json()).toMatchObject({
      code: 'connector_not_found',
    });
    expect((await connect(ada, '/connect/mcp-oauth/complete', { name: 'wiki', claimCode: 'short' })).statusCode).toBe(
      400,
    );

    const started = (await connect(ada, '/connect/mcp-oauth/authorize', { name: 'wiki' })).json()
      .authorizationUrl as string;
    vendor.signInAs(null);
    const denied = await browse(started);
    expect(denied.statusCode).toBe(400);
    expect(denied.body).toContain('access_denied');
    vendor.signInAs('ada-at-vendor');
    const state = new URL(started).searchParams.get('state') as string;
    expect(
      (await gateway.app.inject({ method: 'GET', url: `/connect/mcp-oauth/callback?state=${state}&code=x` })).body,
    ).toContain('expired or was already used');
    expect(
      (await gateway.app.inject({ method: 'GET', url: '/connect/mcp-oauth/callback?state=unknown&code=x' })).statusCode,
    ).toBe(400);

    const service = (
      await gateway.app.inject({
        method: 'POST',
        url: '/admin/v1/keys',
        headers: adminHeaders,
        payload: { type: 'service', name: 'bot', team: 'platform' },
      })
    ).json().key as string;
    expect((await connect(service, '/connect/mcp-oauth/authorize', { name: 'wiki' })).statusCode).toBe(403);
  });

  it('revokes the hub’s grant, after which the mirror no longer lists the connector’s tools', async () => {
    const revoked = await admin('/admin/v1/policies/claude-desktop/connectors/revoke', { name: 'wiki' });
    expect(revoked.json()).toEqual({ state: 'needs-auth', outcome: 'hub-grant-removed' });
    expect(
      (
        await gateway.app.inject({
          method: 'GET',
          url: '/admin/v1/policies/claude-desktop/connectors',
          headers: adminHeaders,
        })
      ).json().mcpHub.servers,
    ).toEqual([expect.objectContaining({ name: 'wiki', outcome: 'needs-auth' })]);
    expect(
      (await hub(ada, rpc('tools/list'))).json().result.tools.map((tool: { name: string }) => tool.name),
    ).not.toContain('wiki__search_docs');
    expect((await admin('/admin/claude-desktop-policy/connectors/revoke', { name: 'wiki' })).statusCode).toBe(404);
  });
});
