import { isoInstant } from '@gw/platform';
import { z } from 'zod';
import type { Clock } from '@gw/platform';
import type { ReleaseManifest } from '@gw/contracts';
import type { BillingClient } from '../billing/billing-client.js';
import type { SettingsStore } from '../admin/settings/settings.store.js';
import { updatesPutBody } from '../admin/settings/settings.schema.js';
import { defineOperation, type AdminOperation } from '../admin/operation.js';
import { gatewayError } from '../errors.js';

export interface UpdatesDeps {
  billing: BillingClient | null;
  settings: SettingsStore;
  clock: Clock;
  running: string;
  environmentHas: (name: string) => boolean;
}

// Release metadata changes a few times a month: an admin page refreshing must not call billing each time.
const releaseCacheMs = 15 * 60_000;

const updateStatus = z.object({
  running: z.string().describe('This build'),
  available: z.string().nullable().describe("The release line's current release; null when unknown"),
  updateAvailable: z.boolean(),
  updateClass: z.enum(['soft', 'hard']).nullable().describe('`soft`: no breaking change; `hard`: needs an operator'),
  preflight: z.object({
    ready: z.boolean().describe('Every variable the release needs is set'),
    missingEnv: z.array(z.string()).describe('Names only, never values'),
    notes: z.array(z.string()).describe("The release's breaking notes"),
  }),
  autoSoftUpdates: z.boolean(),
  hasApplier: z
    .boolean()
    .describe(
      'An updater is installed next to the gateway (none ships with it: updates roll out through the operator)',
    ),
  lastApplyAttempt: z.null().describe('Unattended apply attempts: none without an applier'),
  source: z.enum(['billing', 'billing-unreachable', 'not-configured']).describe('Where `available` came from'),
  checkedAt: z.string().nullable(),
});

/** Compare dotted release versions numerically (1.10.360 > 1.10.99). */
export function isNewer(candidate: string, running: string): boolean {
  const left = candidate.split('.').map(Number);
  const right = running.split('.').map(Number);
  for (let index = 0; index < Math.max(left.length, right.length); index += 1) {
    const difference = (left[index] ?? 0) - (right[index] ?? 0);
    if (difference !== 0) return difference > 0;
  }
  return false;
}

/**
 * The update status and the self-update policy (the contract `/admin/update-status`, `/admin/update/settings`
 * `settings/updates`). The available release and its bounded requirements come from billing (the contract
 * `GET /v1/releases/latest`); the preflight checks the variables it names are set, by name only.
 */
export function updatesOperations(deps: UpdatesDeps): AdminOperation[] {
  let cached: { at: number; release: ReleaseManifest | null } | null = null;
  const latest = async (): Promise<{
    release: ReleaseManifest | null;
    source: z.infer<typeof updateStatus>['source'];
    checkedAt: number | null;
  }> => {
    if (!deps.billing) return { release: null, source: 'not-configured', checkedAt: null };
    const now = deps.clock.now();
    if (cached && now - cached.at < releaseCacheMs)
      return { release: cached.release, source: 'billing', checkedAt: cached.at };
    try {
      cached = { at: now, release: await deps.billing.latestRelease() };
      return { release: cached.release, source: 'billing', checkedAt: now };
    } catch {
      return { release: cached?.release ?? null, source: 'billing-unreachable', checkedAt: cached?.at ?? null };
    }
  };
  const status = async (): Promise<z.infer<typeof updateStatus>> => {
    const { release, source, checkedAt } = await latest();
    const missingEnv = (release?.requirements?.env ?? []).filter((name) => !deps.environmentHas(name));
    const updateAvailable = release !== null && isNewer(release.version, deps.running);
    return {
      running: deps.running,
      available: release?.version ?? null,
      updateAvailable,
      updateClass: updateAvailable ? (release?.updateClass ?? null) : null,
      preflight: {
        ready: missingEnv.length === 0,
        missingEnv,
        notes: updateAvailable ? (release?.requirements?.notes ?? []) : [],
      },
      autoSoftUpdates: deps.settings.get().autoSoftUpdates,
      hasApplier: false,
      lastApplyAttempt: null,
      source,
      checkedAt: checkedAt === null ? null : isoInstant(checkedAt),
    };
  };
  return [
    defineOperation({
      id: 'settings.updates',
      summary:
        'Available vs running version, the preflight (missing variables by name, breaking notes), update class and policy',
      method: 'GET',
      capability: 'config:read',
      legacy: [{ path: '/admin/update-status' }],
      v1: { path: '/admin/v1/settings/updates' },
      xScope: 'deployment',
      response: updateStatus,
      handler: status,
    }),
    defineOperation({
      id: 'settings.updates.policy',
      summary: 'Set the self-update policy: apply soft updates unattended (default on)',
      method: 'PUT',
      capability: 'update:run',
      legacy: [{ path: '/admin/update/settings' }],
      v1: { path: '/admin/v1/settings/updates', scope: 'settings:update' },
      xScope: 'deployment',
      auditCategory: 'settings',
      body: updatesPutBody,
      response: updateStatus,
      handler: async ({ body, principal }) => {
        await deps.settings.update({ autoSoftUpdates: body.autoSoftUpdates }, principal.actor);
        return status();
      },
    }),
    defineOperation({
      id: 'console.auth.update',
      summary:
        'Console pre-check before applying an update: 200 only for the deployment owner when the pending update is soft, else 403; applies nothing',
      method: 'GET',
      capability: 'update:run',
      legacy: [{ path: '/admin/auth/update' }],
      // A console session route: not re-served under /admin/v1 and not deprecated.
      deprecatedLegacy: false,
      xScope: 'deployment',
      response: updateStatus,
      handler: async ({ principal }) => {
        if (!principal.deploymentOwner) throw gatewayError('deployment_scope_required');
        const current = await status();
        if (current.updateClass !== 'soft') throw gatewayError('update_not_soft');
        return current;
      },
    }),
  ];
}
