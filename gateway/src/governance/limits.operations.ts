import { limitsPutBody, limitsResponse } from './limits.schema.js';
import type { LimitsStore } from './limits.store.js';
import { defineOperation, type AdminOperation } from '../admin/operation.js';

const view = (stored: ReturnType<LimitsStore['current']>) => ({
  ...stored.limits,
  revision: stored.revision,
  updatedAt: stored.updatedAt,
  updatedBy: stored.updatedBy,
});

/**
 * Rate and concurrency limits on `/v1/*`: defaults with per-user and
 * per-key overrides. Under `users` in v1 because the governance writer capability `usercaps:write` is `users:write`.
 */
export function limitOperations({ limits }: { limits: LimitsStore }): AdminOperation[] {
  return [
    defineOperation({
      id: 'rateLimits.get',
      summary: 'Rate and concurrency limits: defaults and per-user and per-key overrides',
      method: 'GET',
      capability: 'config:read',
      legacy: [{ path: '/admin/rate-limits' }],
      v1: { path: '/admin/v1/users/rate-limits' },
      xScope: 'deployment',
      response: limitsResponse,
      handler: async () => view(await limits.read()),
    }),
    defineOperation({
      id: 'rateLimits.replace',
      summary: 'Replace the limits document; every replica applies it within seconds; 409 on a stale expectedRevision',
      method: 'PUT',
      capability: 'usercaps:write',
      legacy: [{ path: '/admin/rate-limits' }],
      v1: { path: '/admin/v1/users/rate-limits' },
      xScope: 'deployment',
      body: limitsPutBody,
      response: limitsResponse,
      handler: async ({ body, principal }) => {
        const { expectedRevision, ...document } = body;
        return view(await limits.replace(document, expectedRevision, principal.actor));
      },
    }),
  ];
}
