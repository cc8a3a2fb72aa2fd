import { describe, expect, it } from 'vitest';
import { settingsResponseSchema } from '@gw/contracts';
import { adminAuth, auth, testApp } from './support/test-app.js';

type App = Awaited<ReturnType<typeof testApp>>['app'];

const afterReply = () => new Promise((resolve) => setImmediate(resolve));

async function optimize(app: App, system: string, messages: unknown[], metadata: Record<string, unknown>) {
  const response = await app.inject({
    method: 'POST',
    url: '/v1/optimize',
    headers: auth,
    payload: {
      endpoint: '/v1/chat/completions',
      request: { model: 'gpt-4.1', messages: [{ role: 'system', content: system }, ...messages] },
      metadata,
    },
  });
  expect(response.statusCode).toBe(200);
  await afterReply();
}

describe('cache lint in the settings view (the contract telemetry `cacheLint`)', () => {
  it('reports a system prompt that changes every turn, per session, and counts it on /metrics', async () => {
    const { app, clock } = await testApp();
    const first = [{ role: 'user', content: 'List the failing tests.' }];
    const second = [
      ...first,
      { role: 'assistant', content: 'Two: dates and times.' },
      { role: 'user', content: 'Fix dates.' },
    ];
    const session = { user: 'ada', gatewaySessionId: 'sess-1' };
    await optimize(app, 'Now: 12:00:00 canary-7f3a', first, session);
    clock.advance(30_000);
    await optimize(app, 'Now: 12:00:30 canary-7f3a', second, session);
    // Another user's session with the same id is another conversation; a stable one busts nothing.
    await optimize(app, 'Stable.', first, { user: 'bob', gatewaySessionId: 'sess-1' });
    clock.advance(30_000);
    await optimize(app, 'Stable.', second, { user: 'bob', gatewaySessionId: 'sess-1' });
    // No session: nothing to compare with.
    await optimize(app, 'Now: 12:01:00', second, { user: 'ada' });

    const view = (await app.inject({ method: 'GET', url: '/admin/optimizer/settings', headers: adminAuth })).json();
    expect(settingsResponseSchema.parse(view)).toBeTruthy();
    expect(view.cacheLint).toMatchObject({
      windowSeconds: 3600,
      turnsCompared: 2,
      regions: [{ region: 'system', busts: 1, sessions: 1 }],
    });
    expect(view.cacheLint.regions[0].estimatedTokensRewritten).toBeGreaterThan(0);
    expect(JSON.stringify(view.cacheLint)).not.toContain('canary-7f3a');

    const metrics = (await app.inject({ method: 'GET', url: '/metrics' })).body;
    expect(metrics).toContain('gw_optimizer_cache_lint_busts_total{region="system"} 1');
    expect(metrics).toMatch(/gw_optimizer_cache_lint_rewritten_tokens_total\{region="system"\} [1-9]/);
  });
});
