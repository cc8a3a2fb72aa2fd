import type { FastifyInstance } from 'fastify';
import { adminHeaders } from './helpers.js';

export const scimBearer = 'scim-bearer-0123456789abcdef-okta';
export const scimHeaders = { authorization: `Bearer ${scimBearer}`, 'content-type': 'application/scim+json' };
export const userSchema = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const groupSchema = 'urn:ietf:params:scim:schemas:core:2.0:Group';
export const patchSchema = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
export const errorSchema = 'urn:ietf:params:scim:api:messages:2.0:Error';

/** Turn provisioning on as an administrator would: the bearer, and optionally the group mappings. */
export async function configureScim(app: FastifyInstance, extra: Record<string, unknown> = {}): Promise<void> {
  const response = await app.inject({
    method: 'PUT',
    url: '/admin/v1/sso/scim',
    headers: adminHeaders,
    payload: { bearerToken: scimBearer, ...extra },
  });
  if (response.statusCode !== 200) throw new Error(`SCIM settings: ${response.statusCode} ${response.body}`);
}

/** A SCIM call with the bearer; `body` goes out as application/scim+json. */
export function scim(
  app: FastifyInstance,
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  body?: unknown,
) {
  return app.inject({
    method,
    url: `/scim/v2${url}`,
    headers: scimHeaders,
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });
}

/** The user an identity provider such as Okta provisions first. */
export function oktaUser(userName: string, extra: Record<string, unknown> = {}) {
  return {
    schemas: [userSchema],
    userName,
    name: { givenName: 'Ada', familyName: 'Lovelace' },
    emails: [{ primary: true, value: userName, type: 'work' }],
    displayName: 'Ada Lovelace',
    locale: 'en-US',
    externalId: '00u1abcd',
    groups: [],
    password: 'never-stored-1',
    active: true,
    ...extra,
  };
}

export const patch = (...operations: Array<Record<string, unknown>>) => ({
  schemas: [patchSchema],
  Operations: operations,
});
