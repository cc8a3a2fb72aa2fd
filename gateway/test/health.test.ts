import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from './helpers.js';

describe('health, docs and metrics', () => {
  let gateway: TestGateway;
  beforeEach(async () => {
    gateway = await startTestGateway();
  });
  afterEach(async () => {
    await gateway.close();
  });

  it('is ready and live, and turns only readiness to 503 while draining', async () => {
    expect((await gateway.app.inject({ method: 'GET', url: '/' })).statusCode).toBe(200);
    expect((await gateway.app.inject({ method: 'GET', url: '/livez' })).statusCode).toBe(200);
    gateway.deps.lifecycle.beginDrain();
    const ready = await gateway.app.inject({ method: 'GET', url: '/' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toEqual({ status: 'draining' });
    expect((await gateway.app.inject({ method: 'GET', url: '/livez' })).statusCode).toBe(200);
  });

  it('publishes OpenAPI 3.1 at version 1.10.353 with the admin extensions', async () => {
    const response = await gateway.app.inject({ method: 'GET', url: '/openapi.json' });
    expect(response.statusCode).toBe(200);
    const document = response.json();
    expect(document.openapi).toBe('3.1.0');
    expect(document.info.version).toBe('1.10.353');
    const v1List = document.paths['/admin/v1/keys'].get;
    expect(v1List).toMatchObject({
      'x-required-scope': 'keys:read',
      'x-scope': 'tenant',
      'x-gw-api-status': 'stable',
      'x-legacy-operation': 'GET /admin/service-keys, GET /admin/client-keys',
    });
    expect(document.paths['/admin/v1/keys/{id}/rotate'].post['x-required-scope']).toBe('keys:write');
    const legacy = document.paths['/admin/service-keys'].post;
    expect(legacy).toMatchObject({ 'x-required-capability': 'clientkeys:manage', deprecated: true });
    expect(legacy.requestBody.content['application/json'].schema.required).toEqual(['name', 'team']);
    expect(document.paths['/v1/me'].get).toBeDefined();
  });

  it('publishes the inference error envelopes and the codes each status carries', async () => {
    const document = (await gateway.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const chat = document.paths['/v1/chat/completions'].post.responses;
    expect(chat['200']).toBeDefined();
    expect(chat['400'].description).toContain('`unknown_model`');
    expect(chat['429'].description).toContain('`rate_limit_exceeded`');
    expect(chat['400'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/InferenceError' });
    expect(chat['401'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/KeyFailure' });
    expect(document.paths['/v1/messages'].post.responses['400'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/MessagesError',
    });
    expect(document.components.schemas.KeyFailure.properties.code.enum).toContain('key_revoked');
    expect(document.paths['/admin/v1/keys'].get.responses['400']).toBeUndefined();
  });

  it('serves the interactive explorer from the package, without a CDN', async () => {
    const page = await gateway.app.inject({ method: 'GET', url: '/docs/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).not.toMatch(/https?:\/\/(cdn|unpkg|cdnjs|jsdelivr)/);
    const script = await gateway.app.inject({ method: 'GET', url: '/docs/static/swagger-ui-bundle.js' });
    expect(script.statusCode).toBe(200);
  });

  it('exposes Prometheus metrics', async () => {
    const response = await gateway.app.inject({ method: 'GET', url: '/metrics' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/plain');
    expect(response.body).toContain('gw_process_');
  });
});
