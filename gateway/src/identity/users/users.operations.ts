import { z } from 'zod';
import { gatewayErrors } from '../../errors.js';
import { emailAddress } from './email-address.js';
import { okResponse } from '../keys/key.schema.js';
import type { KeyStore } from '../keys/key.store.js';
import type { RevokedUserStore } from './revoked-users.store.js';
import type { UserDataService } from './user-data.js';
import { keyReachOf } from '../keys/admin/key-reach.js';
import { defineOperation, type AdminOperation } from '../../admin/operation.js';
import type { Principal } from '../../admin/principal.js';

export interface UserOperationDeps {
  revokedUsers: RevokedUserStore;
  userData: UserDataService;
  keys: KeyStore;
  /** `GW_MULTI_TENANT=true`: a tenant-bound principal reaches its tenant's keys only. */
  fleetMode: boolean;
}

const revokedUser = z.object({
  email: z.string(),
  reason: z.string().nullable(),
  revokedBy: z.string(),
  revokedAt: z.string(),
});
const revokeBody = z.strictObject({
  email: emailAddress,
  reason: z.string().trim().max(500).optional().describe('Why; shown to administrators only'),
});
const emailParams = z.object({ email: z.string().min(1).max(320) });
const userParams = z.object({ user: z.string().min(1).max(320) });

const exportResponse = z
  .object({ user: z.string(), exportedAt: z.string() })
  .catchall(z.unknown())
  .describe(
    'Everything stored about the user, one field per source: profile, revoked, scim (what the identity provider provisioned), keys (metadata), caps, spend, traces (metadata), audit',
  );
const eraseResponse = z.object({
  user: z.string(),
  pseudonym: z.string().describe('Identifier that replaces the user in retained records (spend, audit)'),
  erased: z.record(z.string(), z.number()).describe('Rows removed or anonymised per source'),
});

/** Revoked developers and GDPR export/erase. */
export function userOperations({ revokedUsers, userData, keys, fleetMode }: UserOperationDeps): AdminOperation[] {
  const reachOf = keyReachOf(fleetMode);
  /**
   * Fleet mode: export returns and erase revokes the user's keys, so a tenant-bound principal reaches a
   * user only when every key the user holds is its tenant's. Otherwise the user answers as absent, as another
   * tenant's key does.
   */
  const assertReach = async (user: string, principal: Principal) => {
    if (await keys.holdsKeysBeyond(user, reachOf(principal))) throw gatewayErrors.notFound(`user ${user}`);
  };
  return [
    defineOperation({
      id: 'revokedUsers.list',
      summary: 'Developers whose access is revoked',
      method: 'GET',
      capability: 'config:read',
      legacy: [{ path: '/admin/revoked-users' }],
      v1: { path: '/admin/v1/users/revoked' },
      xScope: 'deployment',
      response: z.object({ users: z.array(revokedUser) }),
      handler: async () => ({ users: await revokedUsers.list() }),
    }),
    defineOperation({
      id: 'revokedUsers.revoke',
      summary: 'Revoke a developer: every key they hold answers 401 user_deactivated on the next request',
      method: 'POST',
      capability: 'revokedusers:manage',
      legacy: [{ path: '/admin/revoked-users' }],
      v1: { path: '/admin/v1/users/revoked', scope: 'users:revoke' },
      xScope: 'deployment',
      successStatus: 201,
      body: revokeBody,
      response: revokedUser,
      auditSubjects: ({ result }) => ({
        target: (result as { email: string }).email,
        subject: (result as { email: string }).email,
      }),
      handler: async ({ body, principal }) => revokedUsers.revoke(body.email, body.reason ?? null, principal.actor),
    }),
    defineOperation({
      id: 'revokedUsers.reinstate',
      summary: 'Reinstate a revoked developer',
      method: 'DELETE',
      capability: 'revokedusers:manage',
      legacy: [{ path: '/admin/revoked-users/:email' }],
      v1: { path: '/admin/v1/users/revoked/{email}', scope: 'users:revoke' },
      xScope: 'deployment',
      params: emailParams,
      response: okResponse,
      handler: async ({ params }) => {
        if (!(await revokedUsers.reinstate(params.email))) throw gatewayErrors.notFound(`revoked user ${params.email}`);
        return { ok: true as const };
      },
    }),
    defineOperation({
      id: 'users.export',
      summary:
        'GDPR export: everything stored about a user (key metadata, caps, spend rows, trace metadata, audit entries)',
      method: 'GET',
      capability: 'gdpr:manage',
      legacy: [{ path: '/admin/gdpr/users/:user/export' }],
      v1: { path: '/admin/v1/users/{user}/export', scope: 'users:gdpr' },
      xScope: 'tenant',
      // A personal-data export is a read worth recording.
      audit: true,
      params: userParams,
      response: exportResponse,
      handler: async ({ params, principal }) => {
        await assertReach(params.user, principal);
        return userData.export(params.user);
      },
    }),
    defineOperation({
      id: 'users.erase',
      summary:
        "GDPR erase: remove the user's profile, keys' attribution, caps and trace content; anonymise spend and audit rows",
      method: 'DELETE',
      capability: 'gdpr:manage',
      legacy: [{ path: '/admin/gdpr/users/:user/data' }],
      v1: { path: '/admin/v1/users/{user}/data', scope: 'users:gdpr' },
      xScope: 'tenant',
      params: userParams,
      response: eraseResponse,
      // The erase entry names the pseudonym, never the erased person.
      auditSubjects: ({ result }) => ({ target: (result as { pseudonym: string }).pseudonym, subject: null }),
      handler: async ({ params, principal }) => {
        await assertReach(params.user, principal);
        return userData.erase(params.user);
      },
    }),
  ];
}
