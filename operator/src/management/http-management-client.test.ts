import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpManagementClient } from './http-management-client.js';
import { ManagementError } from './management-client.js';

interface Seen {
  method: string;
  path: string;
  authorization: string;
  body: unknown;
}

describe('HttpManagementClient', () => {
  const seen: Seen[] = [];
  const answers = new Map<string, { status: number; body: unknown }>();
  const server = createServer((request, response) => {
    let text = '';
    request.on('data', (chunk: Buffer) => (text += chunk.toString()));
    request.on('end', () => {
      const key = `${request.method} ${request.url}`;
      seen.push({
        method: request.method ?? '',
        path: request.url ?? '',
        authorization: request.headers.authorization ?? '',
        body: text === '' ? undefined : JSON.parse(text),
      });
      const answer = answers.get(key) ?? { status: 200, body: { ok: true } };
      response.writeHead(answer.status, { 'content-type': 'application/json', 'x-request-id': 'req-1' });
      response.end(JSON.stringify(answer.body));
    });
  });
  let client: HttpManagementClient;
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    client = new HttpManagementClient({
      baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      bearer: 'aak_test',
    });
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it('speaks the v1 paths with the bearer', async () => {
    answers.set('POST /admin/v1/keys', { status: 201, body: { key: 'ark_svc_x', record: { id: 'k1' } } });
    expect(await client.createServiceKey({ name: 'ci', team: 'platform', monthlyBudgetUsd: 50 })).toEqual({
      key: 'ark_svc_x',
      id: 'k1',
    });
    await client.putProviderKey('openai', { type: 'openai', apiKey: 'sk' });
    await client.putProviderKey('upstream', { type: 'gw-upstream', apiKey: 'k', baseUrl: 'https://other.example.com' });
    await client.patchUserLimits('a@example.com', {
      monthlyTokens: 1,
      maxUsd: null,
      softUsd: null,
      reset: 'monthly',
      alerts: null,
    });
    expect(seen.map((request) => `${request.method} ${request.path}`)).toEqual([
      'POST /admin/v1/keys',
      'PUT /admin/v1/providers/openai/key',
      'PUT /admin/v1/providers/upstream/key',
      'PATCH /admin/v1/users/a%40example.com/limits',
    ]);
    expect(seen[0]).toMatchObject({
      authorization: 'Bearer aak_test',
      body: { type: 'service', name: 'ci', team: 'platform', monthlyBudgetUsd: 50 },
    });
    expect(seen[2].body).toEqual({ type: 'gw-upstream', custom_host: 'https://other.example.com', api_key: 'k' }); // The contract
  });

  it('turns the v1 error envelope into a ManagementError that knows whether to retry', async () => {
    answers.set('PUT /admin/v1/policies/claude-desktop', {
      status: 400,
      body: {
        error: { code: 'invalid_request', message: 'credential-shaped value at settings.x', request_id: 'req-1' },
      },
    });
    answers.set('GET /admin/v1/routing', {
      status: 503,
      body: { error: { code: 'unavailable', message: 'draining', request_id: 'req-1' } },
    });
    const refused = await client.putDesktopPolicy({ enabled: true, settings: {} }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ManagementError);
    expect(refused).toMatchObject({ status: 400, code: 'invalid_request', retryable: false });
    await expect(client.getRouting()).rejects.toMatchObject({ status: 503, retryable: true });
  });

  it('keeps only the fields it models from the gateway answers', async () => {
    answers.set('GET /admin/v1/users/a%40example.com/limits', {
      status: 200,
      body: {
        user: 'a@example.com',
        monthlyTokens: 10,
        maxUsd: 5,
        softUsd: null,
        reset: 'weekly',
        strict: false,
        alerts: { thresholdsPercent: [80], webhookConfigured: true },
        revision: 3,
        usage: 1,
        budgetUsage: 0.2,
        status: 'under',
      },
    });
    answers.set('GET /admin/v1/routing', { status: 200, body: { defaultProvider: 'openai' } });
    answers.set('GET /admin/v1/policies/claude-desktop', {
      status: 200,
      body: {
        enabled: true,
        settings: { chatTabEnabled: true },
        revision: 2,
        updatedAt: '2026-01-01T00:00:00.000Z',
        updatedBy: 'admin-token',
      },
    });
    expect(await client.getUserLimits('a@example.com')).toEqual({
      monthlyTokens: 10,
      maxUsd: 5,
      softUsd: null,
      reset: 'weekly',
      alerts: { thresholdsPercent: [80], webhookConfigured: true },
    });
    expect(await client.getRouting()).toEqual({ defaultProvider: 'openai', defaultModel: null, config: null });
    expect(await client.getDesktopPolicy()).toEqual({ enabled: true, settings: { chatTabEnabled: true } });
  });

  it('refuses an answer that is not the Management API v1 shape, as a retryable invalid_response', async () => {
    answers.set('GET /admin/v1/keys/odd', {
      status: 200,
      body: { id: 'odd', name: null, team: 'platform', monthlyBudgetUsd: '50', status: 'active' },
    });
    answers.set('GET /admin/v1/routing/models', { status: 200, body: '<html>' });
    await expect(client.getKey('odd')).rejects.toMatchObject({
      status: 502,
      code: 'invalid_response',
      retryable: true,
    });
    await expect(client.getModels()).rejects.toMatchObject({ status: 502, code: 'invalid_response' });
  });

  it('treats 404 as absent on reads and deletes', async () => {
    answers.set('GET /admin/v1/keys/gone', { status: 404, body: { error: { code: 'not_found', message: 'no key' } } });
    answers.set('DELETE /admin/v1/keys/gone', {
      status: 404,
      body: { error: { code: 'not_found', message: 'no key' } },
    });
    expect(await client.getKey('gone')).toBeNull();
    await expect(client.revokeKey('gone')).resolves.toBeUndefined();
  });

  it('reports an unreachable gateway as retryable', async () => {
    const offline = new HttpManagementClient({ baseUrl: 'http://127.0.0.1:1', bearer: 'x', timeoutMs: 2_000 });
    await expect(offline.me()).rejects.toMatchObject({ status: 0, retryable: true });
  });
});
