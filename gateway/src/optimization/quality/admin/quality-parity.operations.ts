import { isoInstant } from '@gw/platform';
import type { Clock, Db } from '@gw/platform';
import { assessQualityParity, expectedHoldoutShare } from '../index.js';
import { defineOperation, type AdminOperation } from '../../../admin/operation.js';
import { windowRange } from '../../../governance/spend/spend-window.js';
import type { HoldoutConfigSource } from './holdout-config.js';
import { readQualityArms } from './quality-parity.query.js';
import { qualityParityQuery, qualityParityResponse, type QualityParityResponse } from './quality-parity.schema.js';

export interface QualityParityDeps {
  db: Db;
  clock: Clock;
  /** The optimizer's holdout config, for the expected arm sizes of the sample-ratio test. */
  holdoutConfig: HoldoutConfigSource;
}

// JSON has no Infinity or NaN; an undefined statistic is reported as null.
const finite = (value: number | null): number | null => (value !== null && Number.isFinite(value) ? value : null);

function finiteDeep<T>(value: T): T {
  if (typeof value === 'number') return finite(value) as T;
  if (Array.isArray(value)) return value.map(finiteDeep) as T;
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, finiteDeep(entry)])) as T;
  return value;
}

/**
 * The audited-holdout comparison (the contract `GET /admin/spend/quality-parity`, v1 twin
 * `/admin/v1/spend/quality-parity` under `spend:read`): the four quality proxies of treated
 * against holdout sessions with 95% intervals, the verdict, and the gross cost objective.
 */
export function qualityParityOperations(deps: QualityParityDeps): AdminOperation[] {
  return [
    defineOperation({
      id: 'spend.qualityParity',
      summary:
        'Audited holdout: quality proxies of treated vs holdout sessions with 95% intervals, verdict, gross cost objective',
      method: 'GET',
      capability: 'config:read',
      legacy: [{ path: '/admin/spend/quality-parity' }],
      v1: { path: '/admin/v1/spend/quality-parity' },
      xScope: 'tenant',
      query: qualityParityQuery,
      response: qualityParityResponse,
      handler: async ({ query }): Promise<QualityParityResponse> => {
        const range = windowRange(query.window, deps.clock.now());
        const cohortKind = query.cohortKind ?? null;
        const [arms, holdoutConfig] = await Promise.all([
          readQualityArms(deps.db, range, cohortKind),
          deps.holdoutConfig(),
        ]);
        const assessment = assessQualityParity({
          ...arms,
          expectedHoldoutShare: expectedHoldoutShare(holdoutConfig, cohortKind),
        });
        return finiteDeep({
          window: query.window,
          period: { start: isoInstant(range.start), end: isoInstant(range.end) },
          cohortKind,
          verdict: assessment.verdict,
          arms: {
            holdout: { sessions: arms.holdout.sessions, requests: arms.holdout.requests },
            treated: { sessions: arms.treated.sessions, requests: arms.treated.requests },
          },
          sampleRatio: assessment.sampleRatio,
          proxies: assessment.proxies,
          grossCostObjective: assessment.grossCostObjective,
          thresholds: assessment.thresholds,
        });
      },
    }),
  ];
}
