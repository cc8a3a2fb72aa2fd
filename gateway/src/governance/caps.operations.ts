import { addressKey } from '../identity/users/email-address.js';
import { AppError, type Clock, type Coord, isoInstant } from '@gw/platform';
import { gatewayError, gatewayErrors } from '../errors.js';
import { capsResponseOf, capUsages, capViewOf } from './cap-views.js';
import type { CounterReconciler } from './reconcile-counters.js';
import { capPatchBody, capsPutBody, capsResponse, capUserParams, capView, type CapsPut } from './user-caps.schema.js';
import { blankCap, type UserCap, type UserCapStore } from './user-caps.store.js';
import { assertSafeUpstreamUrl } from '../providers/ssrf-guard.js';
import { defineOperation, type AdminOperation } from '../admin/operation.js';

export interface CapOperationDeps {
  caps: UserCapStore;
  coord: Coord;
  clock: Clock;
  reconciler: CounterReconciler;
  /** `GW_ALLOW_PRIVATE_UPSTREAMS`: webhook URLs may be http and private (labs, tests). */
  allowPrivateWebhooks: boolean;
}

/** Every user-influenced outbound URL passes the SSRF guard (CONVENTIONS.md); the error names the field, not the URL. */
async function assertWebhook(url: string | undefined, field: string, allowPrivate: boolean): Promise<void> {
  if (!url) return;
  try {
    await assertSafeUpstreamUrl(url, { allowPrivate });
  } catch (error) {
    if (error instanceof AppError)
      throw gatewayError(
        'invalid_request',
        `${field}: ${error.message.replace(/^baseUrl( host \S+)?/, 'the webhook URL')}`,
      );
    throw error;
  }
}

async function assertPutWebhooks(body: CapsPut, allowPrivate: boolean): Promise<void> {
  await assertWebhook(body.alerts?.webhookUrl, 'body.alerts.webhookUrl', allowPrivate);
  for (const [user, entry] of Object.entries(body.caps))
    await assertWebhook(entry.alerts?.webhookUrl, `body.caps.${user}.alerts.webhookUrl`, allowPrivate);
}

/**
 * A cadence change starts a new counter: bring it up to the stored rows of the period before answering, so the
 * answer and the next call both count the period's earlier calls. Waited for because a reconciliation racing the next
 * call's increment would find the counter already above the stored rows and leave it short. Best effort: a store
 * failure here leaves the correction to the periodic reconciliation rather than failing the cap write.
 */
async function reconcileCadence(
  deps: CapOperationDeps,
  caps: readonly Pick<UserCap, 'user' | 'reset'>[],
): Promise<void> {
  const cadenced = caps.filter((cap) => cap.reset !== 'monthly').map((cap) => ({ user: cap.user, reset: cap.reset }));
  if (cadenced.length > 0) await deps.reconciler.reconcileUsers(cadenced).catch(() => undefined);
}

async function viewOf(deps: CapOperationDeps, cap: UserCap) {
  const now = deps.clock.now();
  return capViewOf(cap, (await capUsages(deps.coord, [cap], now))?.get(cap.user) ?? null, now);
}

/** Per-user caps. */
export function capOperations(deps: CapOperationDeps): AdminOperation[] {
  const { caps } = deps;
  return [
    defineOperation({
      id: 'userCaps.list',
      summary:
        'Every per-user cap with current-period usage, budget usage and alert posture (the webhook URL is never returned)',
      method: 'GET',
      capability: 'config:read',
      legacy: [{ path: '/admin/user-caps' }],
      v1: { path: '/admin/v1/users/limits' },
      xScope: 'deployment',
      response: capsResponse,
      handler: async () => capsResponseOf(deps.coord, await caps.read(), deps.clock.now()),
    }),
    defineOperation({
      id: 'userCaps.replace',
      summary: 'Replace the whole cap map and the map-wide alert settings; returns the GET shape',
      method: 'PUT',
      capability: 'usercaps:write',
      legacy: [{ path: '/admin/user-caps' }],
      v1: { path: '/admin/v1/users/limits' },
      xScope: 'deployment',
      body: capsPutBody,
      response: capsResponse,
      handler: async ({ body, principal }) => {
        await assertPutWebhooks(body, deps.allowPrivateWebhooks);
        const state = await caps.replace(body, principal.actor);
        await reconcileCadence(deps, [...state.caps.values()]);
        return capsResponseOf(deps.coord, state, deps.clock.now());
      },
    }),
    defineOperation({
      id: 'userCaps.get',
      summary: "One user's cap with current-period usage",
      method: 'GET',
      capability: 'config:read',
      legacy: [{ path: '/admin/user-caps/:user' }],
      v1: { path: '/admin/v1/users/{user}/limits' },
      xScope: 'deployment',
      params: capUserParams,
      response: capView,
      handler: async ({ params }) => {
        const cap = (await caps.read()).caps.get(addressKey(params.user));
        if (!cap) throw gatewayErrors.notFound(`cap entry for ${params.user}`);
        return viewOf(deps, cap);
      },
    }),
    defineOperation({
      id: 'userCaps.patch',
      summary:
        'Merge one cap entry: omitted fields kept, null clears, a value replaces; 409 on a stale expectedRevision, 400 on unknown fields',
      method: 'PATCH',
      capability: 'usercaps:write',
      legacy: [{ path: '/admin/user-caps/:user' }],
      v1: { path: '/admin/v1/users/{user}/limits' },
      xScope: 'deployment',
      params: capUserParams,
      body: capPatchBody,
      response: capView,
      handler: async ({ params, body, principal }) => {
        await assertWebhook(body.alerts?.webhookUrl, 'body.alerts.webhookUrl', deps.allowPrivateWebhooks);
        const cap = await caps.patch(params.user, body, principal.actor);
        if (!cap)
          return capViewOf(
            clearedCap(addressKey(params.user), principal.actor, deps.clock.now()),
            null,
            deps.clock.now(),
          );
        await reconcileCadence(deps, [cap]);
        return viewOf(deps, cap);
      },
    }),
  ];
}

/** The answer to a PATCH that cleared every limit: the entry is gone, shown empty. */
function clearedCap(user: string, actor: string, now: number): UserCap {
  return { ...blankCap(user), updatedAt: isoInstant(now), updatedBy: actor };
}
