import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminHeaders, startTestGateway, type TestGateway } from './helpers.js';
import { optimizerToken, startTestOptimizer, type TestOptimizer } from './mcp-support.js';

const optimizerAdminToken = 'optimizer-admin-token-0123456789';

describe("the optimizer's admin routes through the gateway", () => {
  let optimizer: TestOptimizer;
  let gateway: TestGateway;
  const call = (method: 'GET' | 'PUT' | 'POST', url: string, payload?: unknown, target: TestGateway = gateway) =>
    target.app.inject({
      method,
      url,
      headers: adminHeaders,
      ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    });

  beforeAll(async () => {
    optimizer = await startTestOptimizer({ adminToken: optimizerAdminToken });
    gateway = await startTestGateway({
      env: {
        GW_OPTIMIZER_URL: optimizer.url,
        GW_OPTIMIZER_TOKEN: optimizerToken,
        GW_OPTIMIZER_ADMIN_TOKEN: optimizerAdminToken,
      },
    });
  });
  afterAll(async () => {
    await gateway?.close();
    await optimizer?.close();
  });

  it('reads and replaces the runtime settings on v1 and the legacy path, and audits the change', async () => {
    const read = await call('GET', '/admin/v1/optimizer');
    expect(read.statusCode).toBe(200);
    expect(read.json()).toMatchObject({
      config: expect.any(Object),
      guard: expect.any(Object),
      holdout: { scope: 'replica' },
    });

    const replaced = await call('PUT', '/admin/v1/optimizer', {
      holdout: { enabled: true, fraction: 0.1, windowSeconds: 3600 },
    });
    expect(replaced.statusCode).toBe(200);
    expect(replaced.json().config.holdout).toEqual({ enabled: true, fraction: 0.1, windowSeconds: 3600 });
    const legacy = await call('GET', '/admin/optimizer/settings');
    expect(legacy.statusCode).toBe(200);
    expect(legacy.headers.deprecation).toBe('true');
    expect(legacy.json().config.holdout.fraction).toBe(0.1);

    const events = (await call('GET', '/admin/v1/audit/events')).json().data as Array<{
      action: string;
      category: string;
    }>;
    expect(events.some((event) => event.category === 'optimizer')).toBe(true);
  });

  it('refuses a settings body the optimizer could not take, before forwarding it', async () => {
    const refused = await call('PUT', '/admin/v1/optimizer', { holdout: { enabled: 'yes' } });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.code).toBe('invalid_request');
  });

  it("purges one user's stashed originals", async () => {
    const handle = await optimizer.stash('x'.repeat(400), 'leaver@example.com');
    const purged = await call('POST', '/admin/v1/optimizer/purge', { user: 'leaver@example.com' });
    expect(purged.statusCode).toBe(200);
    expect(purged.json().purged.durable).toBe(1);
    const gone = await fetch(`${optimizer.url}/v1/retrieve`, {
      method: 'POST',
      headers: { authorization: `Bearer ${optimizerToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ handle, metadata: { user: 'leaver@example.com' } }),
    });
    expect(gone.status).toBe(404);
    expect((await call('POST', '/admin/v1/optimizer/purge', {})).statusCode).toBe(400);
  });

  it('answers a clear error when the optimizer is missing, refuses the bearer, or does not answer', async () => {
    const bare = await startTestGateway();
    try {
      const missing = await call('GET', '/admin/v1/optimizer', undefined, bare);
      expect(missing.statusCode).toBe(503);
      expect(missing.json().error.code).toBe('optimizer_not_configured');
    } finally {
      await bare.close();
    }
    const wrongBearer = await startTestGateway({
      env: { GW_OPTIMIZER_URL: optimizer.url, GW_OPTIMIZER_ADMIN_TOKEN: 'not-the-optimizer-admin-token' },
    });
    try {
      const refused = await call('POST', '/admin/v1/optimizer/purge', { all: true }, wrongBearer);
      expect(refused.statusCode).toBe(502);
      expect(refused.json().error.code).toBe('optimizer_admin_refused');
    } finally {
      await wrongBearer.close();
    }
    const stopped = await startTestOptimizer({ adminToken: optimizerAdminToken });
    const url = stopped.url;
    await stopped.close();
    const unreachable = await startTestGateway({
      env: { GW_OPTIMIZER_URL: url, GW_OPTIMIZER_ADMIN_TOKEN: optimizerAdminToken },
    });
    try {
      const down = await call('PUT', '/admin/v1/optimizer', { strategies: [] }, unreachable);
      expect(down.statusCode).toBe(502);
      expect(down.json().error.code).toBe('optimizer_unreachable');
    } finally {
      await unreachable.close();
    }
  });
});
