import { describe, expect, it } from 'vitest';
import { adminHeaders, bearer, gatewayPerTest, mintClientKey, startGatewayOnSwitchableStore } from './helpers.js';

const reviewSkill = { name: 'code-review', description: 'Review a diff', content: '# Review\nCheck tests first.' };
const deploySkill = { name: 'deploy', description: 'Ship to staging', content: 'Run `make deploy-staging`.' };

describe('team policies and the effective /connect/policy', () => {
  const gateway = gatewayPerTest();
  const put = (payload: Record<string, unknown>, url = '/admin/v1/policies/teams') =>
    gateway.app.inject({ method: 'PUT', url, headers: adminHeaders, payload });
  const policyOf = async (key: string, query = '') => {
    const response = await gateway.app.inject({
      method: 'GET',
      url: `/connect/policy${query}`,
      headers: { ...bearer(key), host: 'gw.example.com' },
    });
    expect(response.statusCode).toBe(200);
    return response.json();
  };

  it('serves the default tool policy, flagged, before any policy is saved', async () => {
    const { key } = await mintClientKey(gateway.app, { user: 'ada@example.com', team: 'platform' });
    expect(await policyOf(key)).toEqual({
      status: 'ok',
      team: 'platform',
      routing: { origin: 'http://gw.example.com', defaultProvider: null },
      skills: [],
      tools: { enabled: ['gw_retrieve', 'gw_recall'], defaulted: true },
    });
    expect(
      (await gateway.app.inject({ method: 'GET', url: '/admin/v1/policies/teams', headers: adminHeaders })).json(),
    ).toEqual({ teams: {}, revision: 0, updatedAt: null, updatedBy: null });
  });

  it('merges the shared skills with the team’s own, a team skill winning by name, and the team’s tools over the shared ones', async () => {
    const saved = await put({
      teams: {
        '*': { skills: [reviewSkill, deploySkill], tools: { enabled: ['gw_retrieve'] } },
        platform: {
          skills: [{ ...deploySkill, content: 'Run `make deploy-prod` after approval.' }],
          tools: { enabled: ['gw_retrieve', 'gw_recall'], tiers: { gw_recall: 'ask' } },
        },
      },
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({ revision: 1, updatedBy: 'admin-token' });

    const platform = await mintClientKey(gateway.app, { user: 'ada@example.com', team: 'platform' });
    expect(await policyOf(platform.key, '?model=gpt-4o-mini')).toEqual({
      status: 'ok',
      team: 'platform',
      routing: { origin: 'http://gw.example.com', defaultProvider: null },
      skills: [reviewSkill, { ...deploySkill, content: 'Run `make deploy-prod` after approval.' }],
      tools: { enabled: ['gw_retrieve', 'gw_recall'], tiers: { gw_recall: 'ask' } },
      modelContext: { model: 'gpt-4o-mini', contextTokens: 128_000 },
    });
    const data = await mintClientKey(gateway.app, { user: 'grace@example.com', team: 'data' });
    const shared = await policyOf(data.key, '?model=no-such-model');
    expect(shared.skills).toEqual([reviewSkill, deploySkill]);
    expect(shared.tools).toEqual({ enabled: ['gw_retrieve'] });
    expect(shared.modelContext).toEqual({ model: 'no-such-model', contextTokens: null });
  });

  it('refuses credentials in a skill, duplicate skill names and a stale revision; the legacy twin writes the same document', async () => {
    const leaked = await put({
      teams: {
        platform: { skills: [{ ...deploySkill, content: 'export OPENAI_API_KEY=sk-proj-abcdefghijklmnop1234567890' }] },
      },
    });
    expect(leaked.statusCode).toBe(400);
    expect(leaked.json().error.code).toBe('policy_carries_credential');
    expect(leaked.body).not.toContain('sk-proj');
    const duplicate = await put({ teams: { platform: { skills: [deploySkill, deploySkill] } } });
    expect(duplicate.statusCode).toBe(400);
    const badName = await put({ teams: { platform: { skills: [{ ...deploySkill, name: 'Deploy Prod' }] } } });
    expect(badName.statusCode).toBe(400);

    expect((await put({ teams: { platform: { skills: [deploySkill] } } }, '/admin/team-skills')).statusCode).toBe(200);
    const stale = await put({ teams: {}, expectedRevision: 0 });
    expect(stale.statusCode).toBe(409);
    expect((await put({ teams: {}, expectedRevision: 1 })).json()).toMatchObject({ teams: {}, revision: 2 });
  });
});

describe('/connect/policy with the policy store down', () => {
  it('still answers, with skillsIncomplete and the default tools', async () => {
    const stack = await startGatewayOnSwitchableStore();
    try {
      const { key } = await mintClientKey(stack.gateway.app);
      // The key read goes through; only the policy document cannot be read.
      const original = stack.db.query.bind(stack.db);
      stack.db.query = async (...args: Parameters<typeof original>) => {
        if (String(args[0]).includes('gw_policies')) throw new Error('store down');
        return original(...args);
      };
      const response = await stack.gateway.app.inject({ method: 'GET', url: '/connect/policy', headers: bearer(key) });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({
        status: 'ok',
        skills: [],
        skillsIncomplete: true,
        tools: { enabled: ['gw_retrieve', 'gw_recall'], defaulted: true },
      });
    } finally {
      await stack.close();
    }
  });
});
