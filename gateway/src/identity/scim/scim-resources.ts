import type { ScimGroupRecord } from './scim-groups.store.js';
import type { ScimUserRecord } from './scim-users.store.js';

export const userSchema = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const groupSchema = 'urn:ietf:params:scim:schemas:core:2.0:Group';
export const listSchema = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';
/** The gateway's read-only view of what a user's groups map to. */
export const gatewayUserExtension = 'urn:gw:params:scim:schemas:extension:gateway:2.0:User';

/** Absolute base of resource locations: the address the identity provider called. */
export type ScimBase = string;

const version = (record: { version: number }) => `W/"${record.version}"`;

export function userResource(user: ScimUserRecord, base: ScimBase): Record<string, unknown> {
  const name =
    user.givenName !== null || user.familyName !== null
      ? {
          name: {
            ...(user.givenName === null ? {} : { givenName: user.givenName }),
            ...(user.familyName === null ? {} : { familyName: user.familyName }),
          },
        }
      : {};
  return {
    schemas: [userSchema, gatewayUserExtension],
    id: user.id,
    ...(user.externalId === null ? {} : { externalId: user.externalId }),
    userName: user.userName,
    ...(user.displayName === null ? {} : { displayName: user.displayName }),
    ...name,
    ...(user.userType === null ? {} : { userType: user.userType }),
    active: user.active,
    ...(user.emails.length === 0
      ? {}
      : {
          emails: user.emails.map((email) => ({
            value: email.value,
            ...(email.type === null ? {} : { type: email.type }),
            primary: email.primary,
            ...(email.display === null ? {} : { display: email.display }),
          })),
        }),
    groups: user.groups.map((group) => ({
      value: group.id,
      display: group.displayName,
      $ref: `${base}/Groups/${group.id}`,
    })),
    [gatewayUserExtension]: { team: user.team, admin: user.admin },
    meta: {
      resourceType: 'User',
      created: user.created,
      lastModified: user.lastModified,
      location: `${base}/Users/${user.id}`,
      version: version(user),
    },
  };
}

export function groupResource(group: ScimGroupRecord, base: ScimBase): Record<string, unknown> {
  return {
    schemas: [groupSchema],
    id: group.id,
    ...(group.externalId === null ? {} : { externalId: group.externalId }),
    displayName: group.displayName,
    members: group.members.map((member) => ({
      value: member.id,
      display: member.userName,
      type: 'User',
      $ref: `${base}/Users/${member.id}`,
    })),
    meta: {
      resourceType: 'Group',
      created: group.created,
      lastModified: group.lastModified,
      location: `${base}/Groups/${group.id}`,
      version: version(group),
    },
  };
}

export function listResponse(
  resources: readonly unknown[],
  total: number,
  startIndex: number,
): Record<string, unknown> {
  return {
    schemas: [listSchema],
    totalResults: total,
    startIndex,
    itemsPerPage: resources.length,
    Resources: resources,
  };
}
