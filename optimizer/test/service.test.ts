import { describe, expect, it } from 'vitest';
import { healthReportSchema } from '@gw/contracts';
import { auth, chatRequest, testApp } from './support/test-app.js';

describe('service routes', () => {
  it('reports the health blocks', async () => {
    const { app } = await testApp();
    const response = await app.inject({ method: 'GET', url: '/health' });
    expect(response.statusCode).toBe(200);
    const health = healthReportSchema.parse(response.json());
    expect(health).toMatchObject({
      requestSignatures: 'off',
      callers: { gateway: 0, foreign: 0, firstForeignAt: null, lastForeignAt: null },
      reporting: { state: 'no_store', calls: 0, rows: 0, foreignCalls: 0, checkedAt: '2026-01-15T12:00:00.000Z' },
      retrievalStore: { state: 'unconfigured', durable: null },
      features: { persistentTranscriptPolicyV1: true, agentContinuationV1: false },
      lease: { state: 'none' },
    });
  });

  it('publishes an OpenAPI 3.1 document generated from the protocol schemas', async () => {
    const { app } = await testApp();
    const document = (await app.inject({ method: 'GET', url: '/openapi.json' })).json();
    expect(document.openapi).toBe('3.1.0');
    for (const path of [
      '/v1/optimize',
      '/v1/optimize-response',
      '/v1/cache',
      '/v1/retrieve',
      '/v1/recall',
      '/v1/record',
      '/health',
      '/admin/optimizer/settings',
      '/admin/optimizer/bootstrap-durable',
    ]) {
      expect(document.paths).toHaveProperty([path]);
    }
    const retrieveBody = document.paths['/v1/retrieve'].post.requestBody.content['application/json'].schema;
    expect(retrieveBody.required).toEqual(['handle']);
    expect(retrieveBody.properties.grep.description).toMatch(/case-insensitive literal/i);
    expect(
      document.paths['/v1/optimize'].post.responses['200'].content['application/json'].schema.properties,
    ).toHaveProperty('protocolVersion');
    const cacheBody = document.paths['/v1/cache'].post.requestBody.content['application/json'].schema;
    expect(Object.keys(cacheBody.properties).sort()).toEqual([
      'cacheKey',
      'metadata',
      'request',
      'response',
      'shadowOnly',
      'ttlSeconds',
    ]);
    const healthBody = document.paths['/health'].get.responses['200'].content['application/json'].schema;
    expect(healthBody.properties.lease.properties.state.enum).toEqual([
      'none',
      'valid',
      'paused',
      'suspended',
      'expired',
      'unverifiable',
    ]);
    expect(document.paths).not.toHaveProperty(['/metrics']);
  });

  it('serves the API explorer from local assets', async () => {
    const { app } = await testApp();
    const page = await app.inject({ method: 'GET', url: '/docs/' });
    expect(page.statusCode).toBe(200);
    expect(page.body).not.toMatch(/https?:\/\/(cdn|unpkg)/);
    expect((await app.inject({ method: 'GET', url: '/docs/static/swagger-ui-bundle.js' })).statusCode).toBe(200);
  });

  it('exposes Prometheus metrics for optimize, retrieve and cache', async () => {
    const { app } = await testApp();
    await app.inject({
      method: 'POST',
      url: '/v1/optimize',
      headers: auth,
      payload: { endpoint: '/v1/chat/completions', request: chatRequest('x'), metadata: { user: 'ada' } },
    });
    await app.inject({
      method: 'POST',
      url: '/v1/retrieve',
      headers: auth,
      payload: { handle: 'ctx_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' },
    });
    const metrics = await app.inject({ method: 'GET', url: '/metrics' });
    expect(metrics.headers['content-type']).toContain('text/plain');
    expect(metrics.body).toContain('gw_optimizer_optimize_requests_total{outcome="unchanged"} 1');
    expect(metrics.body).toContain('gw_optimizer_optimize_duration_seconds_bucket');
    expect(metrics.body).toContain('gw_optimizer_retrieve_total{result="miss"} 1');
    expect(metrics.body).toContain('gw_optimizer_cache_lookups_total{result="miss"} 1');
  });

  it('answers unknown routes with the coded 404 body and security headers', async () => {
    const { app } = await testApp();
    const response = await app.inject({ method: 'GET', url: '/nope' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ error: { code: 'not_found', message: 'no such route' } });
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  });
});
