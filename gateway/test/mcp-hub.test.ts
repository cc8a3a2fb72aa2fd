import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closedPort } from './evidence-fixture.js';
import { adminHeaders, bearer, mintClientKey, startTestGateway, type TestGateway } from './helpers.js';
import { startLockedMcpServer, startRemoteMcpServer, type RemoteMcpServer } from './remote-mcp-server.js';

const rpc = (method: string, params: Record<string, unknown> = {}) =>
  JSON.stringify({ jsonrpc: '2.0', id: 1, method, params });
const mcpHeaders = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

describe('the organization hub’s connectors: probe, mirror and relay', () => {
  let docs: RemoteMcpServer;
  let jsonDocs: RemoteMcpServer;
  let locked: Awaited<ReturnType<typeof startLockedMcpServer>>;
  let gateway: TestGateway;
  let key: string;
  const admin = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: Record<string, unknown>) =>
    gateway.app.inject({ method, url, headers: adminHeaders, ...(payload ? { payload } : {}) });
  const hub = (body: string) =>
    gateway.app.inject({ method: 'POST', url: '/mcp/org', headers: { ...mcpHeaders, ...bearer(key) }, payload: body });

  beforeAll(async () => {
    [docs, jsonDocs, locked] = await Promise.all([
      startRemoteMcpServer(),
      startRemoteMcpServer({ json: true }),
      startLockedMcpServer(),
    ]);
    gateway = await startTestGateway({ env: { GW_ALLOW_PRIVATE_UPSTREAMS: 'true' } });
    key = (await mintClientKey(gateway.app, { user: 'ada@acme.example', team: 'platform' })).key;
  });
  afterAll(async () => {
    await gateway?.close();
    await Promise.all([docs?.close(), jsonDocs?.close(), locked?.close()]);
  });

  it('probes a server over SSE and over JSON, one that needs authorization, and one that is down, storing nothing', async () => {
    for (const server of [docs, jsonDocs]) {
      const probe = await admin('POST', '/admin/v1/policies/claude-desktop/connectors/probe', { url: server.url });
      expect(probe.statusCode).toBe(200);
      expect(probe.json()).toEqual({
        status: 'ok',
        name: 'acme-docs',
        version: '2.3.0',
        tools: [{ name: 'search_docs', description: 'Search Acme’s internal documentation' }],
        truncated: false,
      });
    }
    expect((await admin('POST', '/admin/claude-desktop-policy/connectors/probe', { url: locked.url })).json()).toEqual({
      status: 'needs-auth',
      resourceMetadata: locked.metadataUrl,
    });
    const down = (
      await admin('POST', '/admin/v1/policies/claude-desktop/connectors/probe', {
        url: `http://127.0.0.1:${await closedPort()}/mcp`,
      })
    ).json();
    expect(down).toMatchObject({ status: 'unreachable', reason: 'network' });
    expect(
      (await admin('POST', '/admin/v1/policies/claude-desktop/connectors/probe', { url: 'not a url' })).statusCode,
    ).toBe(400);
    expect(
      (await admin('GET', '/admin/v1/policies/claude-desktop/connectors')).json().mcpHub.lastSyncCounts?.servers ?? 0,
    ).toBe(0);
  });

  it('mirrors the remote managed servers of the desktop policy and relays their tools through /mcp/org', async () => {
    const saved = await admin('PUT', '/admin/v1/policies/claude-desktop', {
      enabled: true,
      settings: {
        managedMcpServers: {
          docs: { type: 'http', url: docs.url },
          wiki: { type: 'http', url: locked.url },
          filesystem: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem'] },
        },
      },
    });
    expect(saved.statusCode).toBe(200);
    const synced = await admin('POST', '/admin/v1/policies/claude-desktop/connectors/sync');
    expect(synced.statusCode).toBe(200);
    const { mcpHub } = synced.json();
    expect(mcpHub).toMatchObject({
      status: 'ok',
      lastSyncCounts: { servers: 3, ok: 1, needsAuth: 1, unreachable: 0, local: 1, tools: 1 },
    });
    expect(mcpHub.servers).toEqual([
      expect.objectContaining({ name: 'docs', origin: new URL(docs.url).origin, outcome: 'ok', toolCount: 1 }),
      expect.objectContaining({ name: 'wiki', outcome: 'needs-auth', toolCount: 0 }),
    ]);

    const tools = (await hub(rpc('tools/list'))).json().result.tools as Array<{ name: string; inputSchema: unknown }>;
    expect(tools.map((tool) => tool.name)).toEqual(['gw_org_skills', 'gw_org_skill', 'docs__search_docs']);
    expect(tools[2]?.inputSchema).toMatchObject({ type: 'object', properties: { query: { type: 'string' } } });
    const called = (await hub(rpc('tools/call', { name: 'docs__search_docs', arguments: { query: 'deploy' } }))).json()
      .result;
    expect(called).toEqual({
      content: [{ type: 'text', text: '3 pages match "deploy": deploy.md, review.md, oncall.md' }],
    });
    expect(docs.calls).toEqual([{ tool: 'search_docs', input: { query: 'deploy' } }]);
  });

  it('tells the model in-band when a mirrored server is down, and a round with every server down reports no counts', async () => {
    await admin('PUT', '/admin/v1/policies/claude-desktop', {
      enabled: true,
      settings: { managedMcpServers: { docs: { type: 'http', url: jsonDocs.url } } },
    });
    await admin('POST', '/admin/v1/policies/claude-desktop/connectors/sync');
    await jsonDocs.close();
    const failed = (await hub(rpc('tools/call', { name: 'docs__search_docs', arguments: { query: 'x' } }))).json()
      .result;
    expect(failed.isError).toBe(true);
    expect(failed.content[0].text).toContain('could not be used');
    const round = (await admin('POST', '/admin/claude-desktop-policy/connectors/sync')).json().mcpHub;
    expect(round).toMatchObject({
      status: 'failed',
      lastSyncCounts: null,
      servers: [expect.objectContaining({ name: 'docs', outcome: 'unreachable', failure: 'network' })],
    });
    expect((await hub(rpc('tools/list'))).json().result.tools).toHaveLength(2);
  });
});
