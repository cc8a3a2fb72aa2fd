import { z } from 'zod';
import { gatewayError } from '../../errors.js';
import { defineOperation, type AdminOperation } from '../../admin/operation.js';
import type { ConsoleSessionStore } from './console-session.store.js';
import {
  idpConfigPutBody,
  idpConfigView,
  portalLinkView,
  type IdpConfigPut,
  type IdpConfigView,
} from './idp-config.schema.js';
import { defaultClaimMapping, type IdpConfig, type IdpConfigStore } from './idp-config.store.js';
import { DiscoveryFailure, type DiscoveryCache } from './oidc-discovery.js';

export interface IdpConfigDeps {
  configs: IdpConfigStore;
  sessions: ConsoleSessionStore;
  discovery: DiscoveryCache;
  /** Live discovery for validation, never the cache: a save proves the issuer answers now. */
  discover: (issuer: string) => Promise<unknown>;
  /** GW_PUBLIC_URL; without it the redirect URI is the request's own origin (shown as such). */
  publicUrl: string | undefined;
}

const callbackPath = '/admin/sso/callback';

function view(config: IdpConfig | null, base: string): IdpConfigView {
  return {
    configured: config !== null,
    issuer: config?.issuer ?? null,
    clientId: config?.clientId ?? null,
    clientSecretSet: config !== null,
    claimMapping: config?.claimMapping ?? defaultClaimMapping,
    adminRole: config?.adminRole ?? 'owner',
    roleGroupMap: { ...config?.roleGroupMap },
    redirectUri: `${base}${callbackPath}`,
    updatedAt: config?.updatedAt ?? null,
    updatedBy: config?.updatedBy ?? null,
  };
}

/**
 * The identity provider console sign-in uses (`/admin/idp-config`, `/admin/v1/sso` with sso:read and sso:write) and
 * the portal link. A write is validated by a live, SSRF-guarded discovery fetch first; a failure saves nothing. The
 * client secret is write-only: sealed under GW_KEYSTORE_KEY, never returned or audited.
 */
export function idpConfigOperations(deps: IdpConfigDeps): AdminOperation[] {
  const base = (request: { protocol: string; host: string }) =>
    deps.publicUrl ? deps.publicUrl.replace(/\/+$/, '') : `${request.protocol}://${request.host}`;
  const validate = async (body: IdpConfigPut) => {
    try {
      await deps.discover(body.issuer);
    } catch (error) {
      if (!(error instanceof DiscoveryFailure)) throw error;
      throw gatewayError(
        'idp_config_invalid',
        `The identity provider did not validate (${error.message}); nothing was saved.`,
      );
    }
  };
  return [
    defineOperation({
      id: 'sso.idp.get',
      summary:
        'The identity provider for console sign-in: issuer, client id, claim and role mapping, the redirect URI to register (never the secret)',
      method: 'GET',
      capability: 'identity:manage',
      legacy: [{ path: '/admin/idp-config' }],
      v1: { path: '/admin/v1/sso' },
      xScope: 'deployment',
      response: idpConfigView,
      handler: async ({ request }) => view(await deps.configs.read(), base(request)),
    }),
    defineOperation({
      id: 'sso.idp.update',
      summary:
        'Set the identity provider; checked by a live discovery fetch before it is saved (a failure saves nothing). The client secret is write-only',
      method: 'PUT',
      capability: 'identity:manage',
      legacy: [{ path: '/admin/idp-config' }],
      v1: { path: '/admin/v1/sso' },
      xScope: 'deployment',
      auditCategory: 'sso',
      body: idpConfigPutBody,
      response: idpConfigView,
      handler: async ({ body, principal, request }) => {
        const current = await deps.configs.read();
        if (!current && body.clientSecret === undefined)
          throw gatewayError(
            'invalid_request',
            'clientSecret is required the first time the identity provider is set.',
          );
        await validate(body);
        const saved = await deps.configs.write({
          issuer: body.issuer,
          clientId: body.clientId,
          clientSecret: body.clientSecret ?? null,
          claimMapping: body.claimMapping ?? current?.claimMapping ?? defaultClaimMapping,
          adminRole: body.adminRole,
          roleGroupMap: body.roleGroupMap,
          updatedBy: principal.actor,
        });
        deps.discovery.forget();
        // Sessions minted against another issuer or client belong to a provider this deployment no longer trusts.
        if (current && (current.issuer !== saved.issuer || current.clientId !== saved.clientId))
          await deps.sessions.revokeAll('identity_provider_changed');
        return view(saved, base(request));
      },
    }),
    defineOperation({
      id: 'sso.idp.delete',
      summary: 'Remove the identity provider: console sign-in is off and every console session ends',
      method: 'DELETE',
      capability: 'identity:manage',
      legacy: [{ path: '/admin/idp-config' }],
      v1: { path: '/admin/v1/sso' },
      xScope: 'deployment',
      auditCategory: 'sso',
      response: z.object({ deleted: z.boolean(), sessionsEnded: z.number().int() }),
      handler: async () => {
        const deleted = await deps.configs.remove();
        deps.discovery.forget();
        return { deleted, sessionsEnded: deleted ? await deps.sessions.revokeAll('identity_provider_removed') : 0 };
      },
    }),
    defineOperation({
      id: 'sso.portal-link',
      summary:
        'The links to register in the identity provider’s portal: the console sign-in (initiate-login) URL and the exact redirect URI',
      method: 'GET',
      capability: 'identity:manage',
      legacy: [{ path: '/admin/idp-config/portal-link' }],
      v1: { path: '/admin/v1/sso/portal-link' },
      xScope: 'deployment',
      response: portalLinkView,
      handler: async ({ request }) => {
        const config = await deps.configs.read();
        const origin = base(request);
        return {
          configured: config !== null,
          signInUrl: `${origin}/admin/sso/start`,
          redirectUri: `${origin}${callbackPath}`,
          issuer: config?.issuer ?? null,
          clientId: config?.clientId ?? null,
        };
      },
    }),
  ];
}
