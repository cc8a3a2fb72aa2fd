import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryPgliteDb, type TestDb } from '@gw/testkit';
import { healthReportSchema, optimizeResponseResponseSchema, optimizeResponseSchema } from '@gw/contracts';
import { runPipeline, strategyKinds } from '../src/pipeline/index.js';
import { optimize, turn } from './guard-support.js';
import { adminAuth, auth, testApp, type TestApp } from './support/test-app.js';

// Audited holdout through the service with the real pipeline.
let store: TestDb;
beforeAll(async () => {
  store = await createMemoryPgliteDb();
});
afterAll(async () => {
  await store.dispose();
});

async function withHoldout(holdout: Record<string, unknown>): Promise<TestApp> {
  const harness = await testApp({ db: store.db, runPipeline, strategyKinds });
  const put = await harness.app.inject({
    method: 'PUT',
    url: '/admin/optimizer/settings',
    headers: adminAuth,
    payload: { holdout },
  });
  expect(put.statusCode).toBe(200);
  return harness;
}

function optimizeResponse(harness: TestApp, metadata: Record<string, unknown>) {
  const response = {
    id: 'chatcmpl-1',
    choices: [{ index: 0, message: { role: 'assistant', content: 'The router test fails.' } }],
  };
  return harness.app.inject({
    method: 'POST',
    url: '/v1/optimize-response',
    headers: auth,
    payload: { endpoint: '/v1/chat/completions', response, metadata },
  });
}

const kindsOf = (decisions: Array<{ kind: string }>) => decisions.map((decision) => decision.kind);

describe('audited holdout', () => {
  it('answers a control session with the request untouched and exactly one audited_holdout decision', async () => {
    const harness = await withHoldout({ enabled: true, fraction: 1, windowSeconds: 3_600 });
    const request = turn(2);
    const pins = [{ v: 1, kind: 'log_fold', messageIndex: 3, spanHash: 'abc', recipe: { r: 1 } }];
    const response = await optimize(harness, {
      endpoint: '/v1/chat/completions',
      request,
      metadata: { user: 'ada', gatewaySessionId: 'g1' },
      pins,
    });
    const body = optimizeResponseSchema.parse(response.json());
    expect(body).toMatchObject({ cohort: 'holdout', estimatedTokensSaved: 0, suppressedKinds: [], pins });
    expect(body).not.toHaveProperty('cohortKind');
    expect(body.decisions).toEqual([
      {
        kind: 'audited_holdout',
        summary: 'audited holdout: request left unoptimized for this session',
        estimatedTokensSaved: 0,
        estimatedSavingsUsd: 0,
      },
    ]);
    expect(JSON.stringify(body.request)).toBe(JSON.stringify(request));
  });

  it('optimizes a treated session as usual and labels it', async () => {
    const harness = await withHoldout({ enabled: true, fraction: 0, windowSeconds: 3_600 });
    const body = (
      await optimize(harness, {
        endpoint: '/v1/chat/completions',
        request: turn(2),
        metadata: { team: 'core', sessionId: 's1' },
      })
    ).json();
    expect(body.cohort).toBe('treated');
    expect(body).not.toHaveProperty('cohortKind');
    expect(body.estimatedTokensSaved).toBeGreaterThan(0);
    expect(kindsOf(body.decisions)).not.toContain('audited_holdout');
  });

  it('withholds only the one strategy of a per-strategy control row', async () => {
    const harness = await withHoldout({ enabled: true, fraction: 1, windowSeconds: 3_600, kinds: ['log_fold'] });
    const body = (
      await optimize(harness, {
        endpoint: '/v1/chat/completions',
        request: turn(2),
        metadata: { user: 'ada', gatewaySessionId: 'g2' },
      })
    ).json();
    expect(body).toMatchObject({ cohort: 'holdout', cohortKind: 'log_fold' });
    const kinds = kindsOf(body.decisions);
    expect(kinds.filter((kind) => kind === 'audited_holdout')).toHaveLength(1);
    expect(kinds[0]).toBe('audited_holdout');
    expect(kinds).not.toContain('log_fold');
    // The other strategies still act on the control row.
    expect(body.estimatedTokensSaved).toBeGreaterThan(0);
    expect(body.decisions[0]).toEqual({
      kind: 'audited_holdout',
      summary: 'audited holdout: log_fold withheld for this session',
      estimatedTokensSaved: 0,
      estimatedSavingsUsd: 0,
    });
  });

  it('re-derives the same arm on /v1/optimize-response from the same metadata', async () => {
    const harness = await withHoldout({
      enabled: true,
      fraction: 0.5,
      windowSeconds: 3_600,
      kinds: ['log_fold', 'elide_tool_output'],
    });
    const metadatas = Array.from({ length: 24 }, (_, index) =>
      index % 3 === 0
        ? { user: 'ada', gatewaySessionId: `g${index}`, sessionId: 'ignored' }
        : index % 3 === 1
          ? { user: 'ada', sessionId: `s${index}` }
          : { team: 'core', session: `x${index}` },
    );
    const cohorts = new Set<string>();
    for (const metadata of metadatas) {
      const pre = (await optimize(harness, { endpoint: '/v1/chat/completions', request: turn(1), metadata })).json();
      const post = optimizeResponseResponseSchema.parse((await optimizeResponse(harness, metadata)).json());
      expect({ cohort: post.cohort, cohortKind: post.cohortKind }).toEqual({
        cohort: pre.cohort,
        cohortKind: pre.cohortKind,
      });
      expect(post.decisions).toEqual([]);
      cohorts.add(`${pre.cohort}/${pre.cohortKind ?? ''}`);
    }
    expect(cohorts.size).toBeGreaterThanOrEqual(2);
  });

  it('withholds the output stage on its own control row and on a whole-optimizer control, and only there', async () => {
    const response = {
      model: 'gpt-4o',
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: null,
            tool_calls: [
              { id: 'c1', type: 'function', function: { name: 'bash', arguments: '{\n  "command": "ls"\n}' } },
            ],
          },
        },
      ],
    };
    const post = (harness: TestApp) =>
      harness.app.inject({
        method: 'POST',
        url: '/v1/optimize-response',
        headers: auth,
        payload: { endpoint: '/v1/chat/completions', response, metadata: { user: 'ada', gatewaySessionId: 'g-out' } },
      });
    const perKind = (
      await post(
        await withHoldout({ enabled: true, fraction: 1, windowSeconds: 3_600, kinds: ['tool_arguments_minify'] }),
      )
    ).json();
    expect(perKind).toMatchObject({ cohort: 'holdout', cohortKind: 'tool_arguments_minify', response, decisions: [] });
    const whole = (await post(await withHoldout({ enabled: true, fraction: 1, windowSeconds: 3_600 }))).json();
    expect(whole).toMatchObject({ cohort: 'holdout', response, decisions: [] });
    const otherKind = (
      await post(await withHoldout({ enabled: true, fraction: 1, windowSeconds: 3_600, kinds: ['log_fold'] }))
    ).json();
    expect(kindsOf(otherKind.decisions)).toEqual(['tool_arguments_minify']);
  });

  it('leaves unattributable requests out of the audit on both legs', async () => {
    const harness = await withHoldout({ enabled: true, fraction: 1, windowSeconds: 3_600 });
    expect(
      (
        await optimize(harness, {
          endpoint: '/v1/chat/completions',
          request: turn(1),
          metadata: { gatewaySessionId: 'g' },
        })
      ).json(),
    ).not.toHaveProperty('cohort');
    expect(
      (
        await optimize(harness, { endpoint: '/v1/chat/completions', request: turn(1), metadata: { user: 'ada' } })
      ).json(),
    ).not.toHaveProperty('cohort');
    expect((await optimizeResponse(harness, { user: 'ada' })).json()).not.toHaveProperty('cohort');
  });
});

describe('holdout settings and telemetry', () => {
  it('rejects read-only and unknown strategies in holdout.kinds', async () => {
    const harness = await testApp({ db: store.db, runPipeline, strategyKinds });
    const put = (kinds: string[]) =>
      harness.app.inject({
        method: 'PUT',
        url: '/admin/optimizer/settings',
        headers: adminAuth,
        payload: { holdout: { enabled: true, fraction: 0.1, windowSeconds: 3_600, kinds } },
      });
    const readOnly = await put(['census']);
    expect(readOnly.statusCode).toBe(400);
    expect(readOnly.json().error).toEqual({
      code: 'invalid_request',
      message: 'holdout.kinds: census is read-only and cannot be held out',
    });
    expect((await put(['log_fol'])).statusCode).toBe(400);
    expect((await put(['log_fold', 'elide_tool_output'])).statusCode).toBe(200);
  });

  it('reports per-replica arm counts over the last hour, and the settings on /health', async () => {
    const harness = await withHoldout({ enabled: true, fraction: 0.5, windowSeconds: 3_600, kinds: ['log_fold'] });
    let held = 0;
    for (let session = 0; session < 12; session += 1) {
      if (
        (
          await optimize(harness, {
            endpoint: '/v1/chat/completions',
            request: turn(1),
            metadata: { user: 'ada', sessionId: `s${session}` },
          })
        ).json().cohort === 'holdout'
      )
        held += 1;
    }
    const view = (
      await harness.app.inject({ method: 'GET', url: '/admin/optimizer/settings', headers: adminAuth })
    ).json();
    expect(view.holdout).toEqual({
      enabled: true,
      arms: { holdout: held, treated: 12 - held, kinds: held > 0 ? { log_fold: held } : {} },
      windowSeconds: 3_600,
      scope: 'replica',
      authoritativeSource: 'gateway GET /admin/spend/quality-parity',
    });
    const health = healthReportSchema.parse((await harness.app.inject({ method: 'GET', url: '/health' })).json());
    expect(health.holdout).toEqual({ enabled: true, fraction: 0.5, kinds: ['log_fold'] });
    harness.clock.advance(61 * 60_000);
    const later = (
      await harness.app.inject({ method: 'GET', url: '/admin/optimizer/settings', headers: adminAuth })
    ).json();
    expect(later.holdout.arms).toEqual({ holdout: 0, treated: 0, kinds: {} });
  });
});
