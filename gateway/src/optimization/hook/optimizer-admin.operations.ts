import {
  optimizerPurgeRequestSchema,
  optimizerPurgeResponseSchema,
  settingsPutBodySchema,
  settingsResponseSchema,
} from '@gw/contracts';
import { defineOperation, type AdminOperation } from '../../admin/operation.js';
import type { OptimizerAdmin } from './optimizer-admin.js';

/**
 * The optimizer's runtime settings and stash purge, re-served on the gateway's admin plane so one RBAC, one audit
 * trail and one console cover them: reading needs config:read, changing settings optimizer:write, purging
 * optimizer:purge (both `optimizer:write` on v1).
 */
export function optimizerAdminOperations({ optimizer }: { optimizer: OptimizerAdmin }): AdminOperation[] {
  return [
    defineOperation({
      id: 'optimizer.settings.get',
      summary: "The optimizer's runtime config and live telemetry (per optimizer replica)",
      method: 'GET',
      capability: 'config:read',
      legacy: [{ path: '/admin/optimizer/settings' }],
      v1: { path: '/admin/v1/optimizer' },
      xScope: 'tenant',
      response: settingsResponseSchema,
      handler: async () => optimizer.call('GET', '/admin/optimizer/settings'),
    }),
    defineOperation({
      id: 'optimizer.settings.update',
      summary: "Replace the optimizer's runtime config (bare or wrapped in {config}); the optimizer validates it",
      method: 'PUT',
      capability: 'optimizer:write',
      legacy: [{ path: '/admin/optimizer/settings' }],
      v1: { path: '/admin/v1/optimizer' },
      xScope: 'deployment',
      body: settingsPutBodySchema,
      response: settingsResponseSchema,
      handler: async ({ body }) => optimizer.call('PUT', '/admin/optimizer/settings', body),
    }),
    defineOperation({
      id: 'optimizer.purge',
      summary: "Purge the optimizer's stashed originals: one user, one tenant, or all ({all: true})",
      method: 'POST',
      capability: 'optimizer:purge',
      legacy: [{ path: '/admin/optimizer/purge' }],
      v1: { path: '/admin/v1/optimizer/purge', scope: 'optimizer:write' },
      xScope: 'deployment',
      body: optimizerPurgeRequestSchema,
      response: optimizerPurgeResponseSchema,
      auditSubjects: () => ({ target: 'optimizer-stash', subject: null }),
      handler: async ({ body }) => optimizer.call('POST', '/admin/optimizer/purge', body),
    }),
  ];
}
