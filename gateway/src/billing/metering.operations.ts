import { z } from 'zod';
import { heartbeatTiers, meterReport } from '@gw/contracts';
import { leaseStates } from '@gw/platform';
import type { EntitlementDeps } from './entitlement-deps.js';
import { meteringStates } from './metering-lane.js';
import type { SettingsStore } from '../admin/settings/settings.store.js';
import { defineOperation, type AdminOperation } from '../admin/operation.js';

const reportView = z.object({
  id: z.string().describe('The report id billing deduplicates on'),
  windowStart: z.string(),
  windowEnd: z.string(),
  heartbeatTier: z.enum(heartbeatTiers),
  state: z.enum(['pending', 'accepted', 'failed']).describe('`accepted`: billing answered with a lease that verified'),
  httpStatus: z.number().int().nullable(),
  errorCode: z
    .string()
    .nullable()
    .describe(
      "Why it was not accepted: billing's error code, `billing_unreachable`, `billing_timeout`, `unverifiable_lease`",
    ),
  leaseStatus: z.string().nullable(),
  leaseExpiresAt: z.string().nullable(),
  attemptedAt: z.string(),
  report: meterReport.describe('The content-free payload exactly as sent'),
});

const meteringLane = z.object({
  metered: z.boolean().describe('GW_BILLING_URL is set'),
  state: z
    .enum(meteringStates)
    .describe("This replica's lane: `standby` while another replica holds the reporting claim"),
  heartbeatTier: z
    .enum(heartbeatTiers)
    .describe('The tier the next report is sent at (`PUT /admin/settings` heartbeatTier)'),
  lastError: z.object({ code: z.string(), httpStatus: z.number().int().nullable(), at: z.string() }).nullable(),
  lease: z.object({
    status: z.enum(leaseStates),
    source: z.enum(['billing', 'store', 'none']),
    trust: z.enum(['pinned', 'configured']),
    issuedAt: z.string().nullable(),
    expiresAt: z.string().nullable(),
    optimizerEnabled: z.boolean().nullable(),
  }),
  lastReport: reportView.nullable().describe('The last report billing accepted (verified lease)'),
  recent: z.array(reportView).describe('The newest attempts, accepted or not, newest first'),
});

const meteringQuery = z.object({
  limit: z.coerce.number().int().min(0).max(100).default(20).describe('Recent attempts to list, 0..100 (default 20)'),
});

/**
 * The metering audit lane: what this
 * deployment told billing, when, and what billing answered. Content-free by construction, like the reports.
 */
export function meteringOperations(deps: { entitlement: EntitlementDeps; settings: SettingsStore }): AdminOperation[] {
  return [
    defineOperation({
      id: 'audit.metering',
      summary:
        'Metering lane: the last verified usage report, heartbeat tier, metering state, the lease, recent attempts',
      method: 'GET',
      capability: 'config:read',
      legacy: [{ path: '/admin/metering/last-report' }],
      v1: { path: '/admin/v1/audit/metering' },
      xScope: 'deployment',
      query: meteringQuery,
      response: meteringLane,
      handler: async ({ query }) => {
        const { gate, lane, reports, leaseTrust } = deps.entitlement;
        const verdict = gate?.verdict() ?? { state: 'none' as const, payload: null };
        const [lastReport, recent] = await Promise.all([
          reports.lastAccepted(),
          query.limit > 0 ? reports.recent(query.limit) : Promise.resolve([]),
        ]);
        return {
          metered: lane !== null,
          state: lane?.state ?? 'not-metered',
          heartbeatTier: deps.settings.get().heartbeatTier,
          lastError: lane?.lastError ?? null,
          lease: {
            status: verdict.state,
            source: gate?.leaseSource ?? 'none',
            trust: leaseTrust,
            issuedAt: verdict.payload?.issuedAt ?? null,
            expiresAt: verdict.payload?.expiresAt ?? null,
            optimizerEnabled: verdict.payload?.optimizerEnabled ?? null,
          },
          lastReport,
          recent,
        };
      },
    }),
  ];
}
