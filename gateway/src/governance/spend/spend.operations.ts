import { isoInstant } from '@gw/platform';
import type { Clock, Coord, Db } from '@gw/platform';
import type { UserCapStore } from '../user-caps.store.js';
import type { SpendRing } from '../../metering/spend-recorder.js';
import { defineOperation, type AdminOperation } from '../../admin/operation.js';
import { dashboard } from './spend-dashboard.query.js';
import { num, usd } from './spend-sql.js';
import { cappedUsers, orgUsage, usersUsage } from './spend-usage.query.js';
import {
  dashboardQuery,
  dashboardResponse,
  propertiesQuery,
  propertiesResponse,
  summaryResponse,
  usageQuery,
  usageResponse,
} from './spend.schema.js';
import { reportRange, windowRange } from './spend-window.js';
import { summarizeRing } from './summarize-ring.js';

export interface SpendOperationDeps {
  db: Db;
  coord: Coord;
  clock: Clock;
  ring: SpendRing;
  caps: UserCapStore;
}

const maxPropertyValues = 500;

/** Spend and governance reads. Tenant-scoped in fleet mode. */
export function spendOperations(deps: SpendOperationDeps): AdminOperation[] {
  const { db, clock } = deps;
  return [
    defineOperation({
      id: 'spend.summary',
      summary: 'In-memory summary: requests and tokens per attributed user since start (live view)',
      method: 'GET',
      capability: 'config:read',
      legacy: [{ path: '/admin/spend' }],
      v1: { path: '/admin/v1/spend/summary' },
      xScope: 'tenant',
      response: summaryResponse,
      handler: async () => summarizeRing(deps.ring.snapshot()),
    }),
    defineOperation({
      id: 'spend.dashboard',
      summary: 'Windowed dashboard: totals, time series, top users and models, rejections and optimizer outcomes',
      method: 'GET',
      capability: 'config:read',
      legacy: [{ path: '/admin/spend/dashboard' }],
      v1: { path: '/admin/v1/spend/dashboard' },
      xScope: 'tenant',
      query: dashboardQuery,
      response: dashboardResponse,
      handler: async ({ query }) => dashboard(db, query.window, windowRange(query.window, clock.now())),
    }),
    defineOperation({
      id: 'spend.usage',
      summary:
        'Per-user usage (heaviest first) with per-model and per-UTC-day breakdowns, capped users, org per-model rollup',
      method: 'GET',
      capability: 'config:read',
      legacy: [{ path: '/admin/spend/usage' }],
      v1: { path: '/admin/v1/spend/usage' },
      xScope: 'tenant',
      query: usageQuery,
      response: usageResponse,
      handler: async ({ query }) => {
        const now = clock.now();
        const range = reportRange(query.window, now, query.from, query.to);
        const [users, org, capped] = await Promise.all([
          usersUsage(db, range, query.limit),
          orgUsage(db, range),
          cappedUsers(deps.coord, deps.caps, now),
        ]);
        return {
          window: query.window,
          range: query.from || query.to ? { from: query.from ?? null, to: query.to ?? null } : null,
          period: { start: isoInstant(range.start), end: isoInstant(range.end) },
          limit: query.limit,
          truncated: users.truncated,
          totals: org.totals,
          users: users.users,
          cappedUsers: capped,
          models: org.models,
        };
      },
    }),
    defineOperation({
      id: 'spend.usageProperties',
      summary: 'Requests, tokens and USD per value of one custom property (x-gw-property-<name>)',
      method: 'GET',
      capability: 'config:read',
      legacy: [{ path: '/admin/spend/usage/properties' }],
      v1: { path: '/admin/v1/spend/usage/properties' },
      xScope: 'tenant',
      query: propertiesQuery,
      response: propertiesResponse,
      handler: async ({ query }) => {
        const range = windowRange(query.window, clock.now());
        const { rows } = await db.query<{
          value: string;
          requests: string | number;
          total_tokens: string | number;
          cost_usd: string | number;
        }>(
          `SELECT attribution->'properties'->>$3 AS value, count(*) AS requests, COALESCE(sum(total_tokens), 0) AS total_tokens, COALESCE(sum(cost_usd), 0) AS cost_usd
             FROM gw_spend WHERE ts >= $1 AND ts < $2 AND outcome <> 'rejected' AND attribution->'properties'->>$3 IS NOT NULL
            GROUP BY 1 ORDER BY cost_usd DESC, requests DESC, value LIMIT $4`,
          [new Date(range.start), new Date(range.end), query.name, maxPropertyValues + 1],
        );
        return {
          name: query.name,
          window: query.window,
          period: { start: isoInstant(range.start), end: isoInstant(range.end) },
          values: rows.slice(0, maxPropertyValues).map((row) => ({
            value: row.value,
            requests: num(row.requests),
            totalTokens: num(row.total_tokens),
            costUsd: usd(row.cost_usd),
          })),
          truncated: rows.length > maxPropertyValues,
        };
      },
    }),
  ];
}
