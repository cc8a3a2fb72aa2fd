import { assertSafeUpstreamUrl } from '../../providers/ssrf-guard.js';
import { gatewayError } from '../../errors.js';
import { defineOperation, type AdminOperation } from '../../admin/operation.js';
import { guardrailsPutBody, guardrailsResponse, type StoredGuardrailHook } from './guardrail.schema.js';
import type { GuardrailStore } from './guardrail.store.js';

export interface GuardrailOperationDeps {
  store: GuardrailStore;
  contentMode: () => 'off' | 'full';
  allowPrivate: boolean;
}

const view = (hooks: readonly StoredGuardrailHook[]) => hooks.map(({ sealedBearer: _sealed, ...hook }) => hook);

/**
 * Guardrail hooks on the admin plane. Writing them is a content decision (a hook may be sent request bodies), so it
 * needs `settings:content` like the content settings; every hook URL passes the SSRF guard before it is saved.
 */
export function guardrailOperations({ store, contentMode, allowPrivate }: GuardrailOperationDeps): AdminOperation[] {
  return [
    defineOperation({
      id: 'guardrails.get',
      summary: 'The guardrail hooks the admission stage asks, in order (bearers never shown)',
      method: 'GET',
      capability: 'config:read',
      v1: { path: '/admin/v1/settings/guardrails' },
      xScope: 'deployment',
      response: guardrailsResponse,
      handler: async () => {
        const stored = await store.read();
        return { hooks: view(stored.hooks), contentMode: contentMode(), updatedAt: stored.updatedAt };
      },
    }),
    defineOperation({
      id: 'guardrails.replace',
      summary: 'Replace the guardrail hooks (at most 8; a hook keeps its bearer when the write leaves it out)',
      method: 'PUT',
      capability: 'content:manage',
      v1: { path: '/admin/v1/settings/guardrails', scope: 'settings:content' },
      xScope: 'deployment',
      body: guardrailsPutBody,
      response: guardrailsResponse,
      handler: async ({ body, principal }) => {
        for (const hook of body.hooks) {
          try {
            await assertSafeUpstreamUrl(hook.url, { allowPrivate });
          } catch (error) {
            throw gatewayError(
              'invalid_request',
              `hooks.${hook.name}.url: ${error instanceof Error ? error.message : 'refused'}`,
            );
          }
        }
        const stored = await store.replace(body.hooks, principal.actor);
        return { hooks: view(stored.hooks), contentMode: contentMode(), updatedAt: stored.updatedAt };
      },
    }),
  ];
}
