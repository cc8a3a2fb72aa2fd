import type { Db } from '@gw/platform';
import { defineOperation, type AdminOperation } from '../../../admin/operation.js';
import { assertSafeUpstreamUrl } from '../../../providers/ssrf-guard.js';
import { addDays } from '../../../providers/usage-reports/daily-totals.js';
import { compareExternalSpend } from './external-spend.query.js';
import {
  connectorsResponse,
  externalUsageQuery,
  externalUsageResponse,
  spendConnectorsPut,
  syncBody,
  syncResponse,
  type SpendConnectorsPut,
} from './spend-connector.schema.js';
import type { SpendConnectorStore } from './spend-connector.store.js';
import type { SpendConnectorSync } from './spend-connector-sync.js';

export interface SpendConnectorOperationDeps {
  db: Db;
  store: SpendConnectorStore;
  sync: SpendConnectorSync;
  allowPrivate: boolean;
}

const defaultSyncDays = 30;

async function assertSafeBaseUrls(changes: SpendConnectorsPut, allowPrivate: boolean): Promise<void> {
  for (const change of [changes.openai, changes.anthropic]) {
    if (change?.baseUrl) await assertSafeUpstreamUrl(change.baseUrl, { allowPrivate });
  }
}

/** Spend connectors: the providers' own usage reports beside gw's spend (src/governance/spend/connectors/README.md). */
export function spendConnectorOperations({
  db,
  store,
  sync,
  allowPrivate,
}: SpendConnectorOperationDeps): AdminOperation[] {
  return [
    defineOperation({
      id: 'spendConnectors.get',
      summary: 'Spend connectors: configured vendors, key hints and the last sync; never the admin keys',
      method: 'GET',
      capability: 'config:read',
      legacy: [{ path: '/admin/spend-connectors' }, { path: '/admin/spend/connectors' }],
      v1: { path: '/admin/v1/providers/connectors' },
      xScope: 'deployment',
      response: connectorsResponse,
      handler: async () => ({ connectors: await store.views() }),
    }),
    defineOperation({
      id: 'spendConnectors.put',
      summary: 'Set, rotate or remove the write-only vendor admin keys (omitted vendors unchanged; null or {} removes)',
      method: 'PUT',
      capability: 'providerkeys:manage',
      legacy: [{ path: '/admin/spend-connectors' }],
      v1: { path: '/admin/v1/providers/connectors' },
      xScope: 'deployment',
      body: spendConnectorsPut,
      response: connectorsResponse,
      handler: async ({ body, principal }) => {
        await assertSafeBaseUrls(body, allowPrivate);
        await store.update(body, principal.actor);
        return { connectors: await store.views() };
      },
    }),
    defineOperation({
      id: 'spendConnectors.sync',
      summary:
        "Pull each configured vendor's usage and cost reports now: per-connector counts, or skipped or failed with the reason",
      method: 'POST',
      capability: 'providerkeys:manage',
      legacy: [{ path: '/admin/spend-connectors/sync' }],
      v1: { path: '/admin/v1/providers/connectors/sync' },
      xScope: 'deployment',
      body: syncBody,
      response: syncResponse,
      handler: async ({ body }) => ({ connectors: await sync.syncAll(body?.days ?? defaultSyncDays) }),
    }),
    defineOperation({
      id: 'spendConnectors.usage',
      summary: "Vendor-reported daily per-model spend beside gw's own spend records, with the difference",
      method: 'GET',
      capability: 'config:read',
      legacy: [{ path: '/admin/spend-connectors/usage' }],
      v1: { path: '/admin/v1/spend/external' },
      xScope: 'deployment',
      query: externalUsageQuery,
      response: externalUsageResponse,
      handler: async ({ query }) => {
        const window = sync.windowOf(query.days);
        const rows = await compareExternalSpend(db, window);
        const views = await store.views();
        const vendors = views.map((view) => {
          const mine = rows.filter((row) => row.vendor === view.vendor);
          const vendorUsd = mine.reduce((sum, row) => sum + (row.vendorReport?.costUsd ?? 0), 0);
          const gatewayUsd = mine.reduce((sum, row) => sum + (row.gateway?.costUsd ?? 0), 0);
          const round = (value: number) => Math.round(value * 1e6) / 1e6;
          return {
            vendor: view.vendor,
            configured: view.configured,
            lastSyncAt: view.lastSync?.at ?? null,
            vendorUsd: round(vendorUsd),
            gatewayUsd: round(gatewayUsd),
            differenceUsd: round(vendorUsd - gatewayUsd),
          };
        });
        return { days: query.days, from: window.startDay, to: addDays(window.endDay, -1), vendors, rows };
      },
    }),
  ];
}
