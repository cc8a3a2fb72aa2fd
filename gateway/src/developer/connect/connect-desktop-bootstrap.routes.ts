import type { FastifyInstance } from 'fastify';
import type { AuthFailureGuard } from '../../chain/edge/auth-failure-guard.js';
import { KeyFailure, gatewayError } from '../../errors.js';
import { resolveIdentity } from '../../identity/caller.js';
import type { KeyStore } from '../../identity/keys/key.store.js';
import { extractClientKey } from '../../identity/keys/extract-key.js';
import {
  bootstrapPath,
  bootstrapQuery,
  bootstrapResponse,
  desktopBootstrapOf,
  gatewayBaseUrl,
  type DesktopBootstrap,
} from '../../policies/desktop-bootstrap.js';
import type { DesktopPolicyStore } from '../../policies/desktop-policy.store.js';
import { connectErrors } from './connect-errors.js';
import { connectErrorResponse } from './connect.schema.js';

export interface ConnectDesktopBootstrapOptions {
  policies: DesktopPolicyStore;
  keys: KeyStore;
  /** `GW_PUBLIC_URL`, else the origin the client called. */
  publicUrl: string | undefined;
  /** Counts rejected keys per address, as the key chain does, so the bootstrap is no key-guessing oracle. */
  authFailureGuard: AuthFailureGuard;
}

const policyNotServed = () => gatewayError('desktop_policy_disabled');

/**
 * `GET /connect/claude-desktop/bootstrap`: the secret-free desktop policy for one operating system. The desktop
 * assistant fetches it before it holds a key (the profile pins this URL), so a keyless fetch is served; a presented
 * key is verified like everywhere else and a rejected one answers 401. The policy comes from the replica's cached copy:
 * a fleet of desktops starting at nine o'clock costs the store nothing.
 */
export async function connectDesktopBootstrapRoutes(
  app: FastifyInstance,
  options: ConnectDesktopBootstrapOptions,
): Promise<void> {
  app.get(
    bootstrapPath,
    {
      schema: {
        tags: ['connect'],
        security: [{}, { clientKey: [] }],
        summary:
          'The desktop assistant’s bootstrap: the secret-free effective policy for one OS, the gateway base URL and the headers-helper path; 404 while the policy is disabled',
        querystring: bootstrapQuery,
        response: {
          200: bootstrapResponse,
          400: connectErrorResponse,
          401: connectErrorResponse,
          403: connectErrorResponse,
          404: connectErrorResponse,
          429: connectErrorResponse,
          503: connectErrorResponse,
        },
      },
    },
    async (request, reply): Promise<DesktopBootstrap> => {
      const { os } = request.query as { os: DesktopBootstrap['os'] };
      const rawKey = extractClientKey(request.headers);
      let caller: DesktopBootstrap['caller'] = null;
      if (rawKey) {
        const identity = await resolveIdentity(options.keys, rawKey).catch(async (error: unknown) => {
          if (error instanceof KeyFailure && error.failure !== 'key_store_unavailable')
            throw (await options.authFailureGuard.recordFailure(request.ip)) ?? error;
          throw error;
        });
        if (identity.keyType === 'service') throw connectErrors.serviceKeyNotAllowed();
        caller = { user: identity.user, team: identity.team };
      }
      const policy = options.policies.current();
      if (!policy.enabled) throw policyNotServed();
      void reply.header('cache-control', 'no-store');
      return desktopBootstrapOf(
        policy,
        os,
        gatewayBaseUrl(options.publicUrl, `${request.protocol}://${request.host}`),
        caller,
      );
    },
  );
}
