import { z } from 'zod';
import { type Clock, type Db } from '@gw/platform';
import { supportBundleMaxBytes } from '@gw/contracts';
import { BillingCallFailed, type BillingClient } from '../billing/billing-client.js';
import type { GatewayConfig } from '../config.js';
import { interfaceVersion } from './docs/openapi.plugin.js';
import type { EndpointDeps } from '../fleet/endpoint-deps.js';
import type { ProviderStore } from '../providers/provider.store.js';
import type { RoutingStore } from '../routing/routing.store.js';
import { defineOperation, type AdminOperation } from '../admin/operation.js';
import { configurationSummary, originOf } from '../admin/settings/configuration-summary.js';
import { healthReport, type HealthOperationDeps } from '../admin/settings/health.operations.js';
import { gatewayError } from '../errors.js';

export interface SupportBundleDeps {
  health: HealthOperationDeps;
  config: GatewayConfig;
  db: Db;
  providers: ProviderStore;
  routing: RoutingStore;
  endpoint: EndpointDeps | null;
  clock: Clock;
  /** Billing's support intake; null when the gateway is not connected to billing. */
  billing: BillingClient | null;
  deploymentId: string | undefined;
}

const bundle = z
  .object({
    bundleVersion: z.literal(1),
    generatedAt: z.string(),
    gateway: z.object({ version: z.string(), node: z.string(), platform: z.string(), uptimeSeconds: z.number().int() }),
    health: z.record(z.string(), z.unknown()).describe('The same report as GET /admin/v1/settings/health'),
    configuration: z
      .record(z.string(), z.unknown())
      .describe('Every variable: values that are not secrets, URLs as scheme, host and port, secrets as set or unset'),
    providers: z.array(
      z.object({
        slug: z.string(),
        type: z.string(),
        origin: z.string(),
        apiVersion: z.string().nullable(),
        hasKey: z.boolean(),
      }),
    ),
    routing: z.object({ defaultProvider: z.string().nullable(), aliases: z.number().int(), models: z.number().int() }),
    inventory: z
      .record(z.string(), z.number().int().nullable())
      .describe('Counts only: keys, admin keys, revoked users, SCIM users, seats, spend rows of the last 24 hours'),
    endpointControl: z.object({ configured: z.boolean(), reachable: z.boolean().optional() }),
  })
  .describe('A content-free diagnostic snapshot to review before sharing: no key, token, prompt, address or user');

// What a shared bundle may hold: the bundle's own fields, values no richer than the gateway writes (a short scalar, or
// one level of them), so sharing cannot carry a pasted file, a prompt or a key blob to support.
const scalar = z.union([z.string().max(512), z.number(), z.boolean(), z.null()]);
const flat = z.record(z.string().max(128), z.union([scalar, z.record(z.string().max(128), scalar)]));
const shareableBundle = bundle
  .extend({
    health: flat,
    configuration: flat,
    inventory: z.record(z.string().max(128), z.number().int().nullable()),
  })
  .strict();
const shareBody = z.strictObject({
  bundle: shareableBundle.describe(
    'The bundle as reviewed (GET /admin/v1/settings/support-bundle); fields may be removed, not added',
  ),
  note: z.string().max(2000).optional().describe('What you tell support, in your own words'),
});
const shareReceipt = z.object({ receiptId: z.string().describe('Quote it to support'), receivedAt: z.string() });

// Each count is its own statement so a missing or unreadable table costs only its own figure.
const inventoryQueries: Readonly<Record<string, string>> = {
  clientKeysActive:
    "SELECT count(*) AS n FROM gw_keys WHERE type = 'client' AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > $1)",
  serviceKeysActive:
    "SELECT count(*) AS n FROM gw_keys WHERE type = 'service' AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > $1)",
  keysRevokedOrExpired: 'SELECT count(*) AS n FROM gw_keys WHERE revoked_at IS NOT NULL OR expires_at <= $1',
  adminKeysActive:
    'SELECT count(*) AS n FROM gw_admin_keys WHERE revoked_at IS NULL AND (expires_at IS NULL OR expires_at > $1)',
  revokedUsers: 'SELECT count(*) AS n FROM gw_revoked_users WHERE $1::timestamptz IS NOT NULL',
  scimUsers: 'SELECT count(*) AS n FROM gw_scim_users WHERE NOT deleted AND $1::timestamptz IS NOT NULL',
  seats: 'SELECT count(*) AS n FROM gw_seats WHERE $1::timestamptz IS NOT NULL',
  spendRowsLast24h: "SELECT count(*) AS n FROM gw_spend WHERE ts > $1::timestamptz - interval '24 hours'",
};

async function inventoryOf(db: Db, now: Date): Promise<Record<string, number | null>> {
  const entries = await Promise.all(
    Object.entries(inventoryQueries).map(async ([name, sql]) => {
      const count = await db.query<{ n: string | number }>(sql, [now]).then(
        (result) => Number(result.rows[0]?.n ?? 0),
        () => null,
      );
      return [name, count] as const;
    }),
  );
  return Object.fromEntries(entries);
}

/**
 * `GET /admin/support/bundle` and `/admin/v1/settings/support-bundle`: a one-shot diagnostic
 * snapshot an administrator reviews before sharing it with support; `/support-bundle/share` sends the reviewed bundle
 * to billing's intake.
 */
export function supportBundleOperations(deps: SupportBundleDeps): AdminOperation[] {
  return [
    defineOperation({
      id: 'settings.supportBundle',
      summary:
        'A content-free diagnostic snapshot: versions, health, configuration without secrets, providers without keys, counts',
      method: 'GET',
      capability: 'config:read',
      legacy: [{ path: '/admin/support/bundle' }],
      v1: { path: '/admin/v1/settings/support-bundle' },
      xScope: 'deployment',
      audit: true,
      response: bundle,
      handler: async ({ reply }) => {
        const now = new Date(deps.clock.now());
        const [health, providers, inventory, endpointControl] = await Promise.all([
          healthReport(deps.health),
          deps.providers.summaries().catch(() => []),
          inventoryOf(deps.db, now),
          endpointStatus(deps.endpoint),
        ]);
        const documents = deps.routing.documents;
        const answer = {
          bundleVersion: 1 as const,
          generatedAt: now.toISOString(),
          gateway: {
            version: interfaceVersion,
            node: process.version,
            platform: `${process.platform}/${process.arch}`,
            uptimeSeconds: Math.round(process.uptime()),
          },
          health,
          configuration: configurationSummary(deps.config),
          providers: providers.map((provider) => ({
            slug: provider.slug,
            type: provider.type,
            origin: originOf(provider.baseUrl),
            apiVersion: provider.apiVersion,
            hasKey: provider.hasKey,
          })),
          routing: {
            defaultProvider: documents.default.defaultProvider,
            aliases: Object.keys(documents.aliases).length,
            models: Object.keys(documents.models).length,
          },
          inventory,
          endpointControl,
        };
        void reply
          .header('cache-control', 'no-store')
          .header(
            'content-disposition',
            `attachment; filename="gw-support-bundle-${now.toISOString().slice(0, 10)}.json"`,
          );
        return answer;
      },
    }),
    defineOperation({
      id: 'settings.supportBundleShare',
      summary: "Send a reviewed support bundle to support through billing's intake (1,000,000 bytes, one a minute)",
      method: 'POST',
      capability: 'content:manage',
      legacy: [{ path: '/admin/support/bundle/share' }],
      v1: { path: '/admin/v1/settings/support-bundle/share' },
      xScope: 'deployment',
      body: shareBody,
      response: shareReceipt,
      auditSubjects: ({ result }) => ({ target: (result as { receiptId: string }).receiptId, subject: null }),
      handler: async ({ body }) => shareBundle(deps, body),
    }),
  ];
}

async function shareBundle(
  deps: SupportBundleDeps,
  body: z.infer<typeof shareBody>,
): Promise<z.infer<typeof shareReceipt>> {
  if (!deps.billing || !deps.deploymentId) {
    throw gatewayError('support_intake_not_configured');
  }
  const upload = {
    deploymentId: deps.deploymentId,
    bundle: body.bundle,
    ...(body.note === undefined ? {} : { note: body.note }),
  };
  if (Buffer.byteLength(JSON.stringify(upload)) > supportBundleMaxBytes) {
    throw gatewayError('payload_too_large', `A shared bundle is at most ${supportBundleMaxBytes} bytes.`);
  }
  try {
    return await deps.billing.uploadSupportBundle(upload);
  } catch (error) {
    if (!(error instanceof BillingCallFailed)) throw error;
    if (error.httpStatus === 429) {
      throw gatewayError('support_bundle_throttled', undefined, {
        headers: { 'retry-after': String(error.retryAfterSeconds ?? 60) },
      });
    }
    throw gatewayError('support_intake_unavailable', `The support intake did not take the bundle (${error.code}).`, {
      retryable: error.httpStatus === null || error.httpStatus >= 500,
    });
  }
}

async function endpointStatus(endpoint: EndpointDeps | null): Promise<{ configured: boolean; reachable?: boolean }> {
  if (!endpoint) return { configured: false };
  const answer = await endpoint.client.request('GET', '/readyz').catch(() => null);
  return { configured: true, reachable: answer?.status === 200 };
}
