import { z } from 'zod';
import { badRequest } from './protocol/scim-error.js';
import { emailsOf } from './protocol/emails.js';
import { scimBoolean } from './protocol/scim-boolean.js';
import type { ScimUserAttributes } from './protocol/user-patch.js';
import type { GroupWrite } from './scim-groups.store.js';

// Identity providers send many attributes this server does not keep (passwords, phone numbers, addresses, titles, the
// enterprise extension): objects stay loose so provisioning never fails on them; only the kept attributes are checked
// and only they reach the store.
const text = (max: number) => z.string().trim().max(max);
const optionalText = (max: number) => text(max).nullish();

const userBody = z.looseObject({
  userName: z.string().trim().min(1, 'userName is required').max(320),
  externalId: optionalText(256),
  displayName: optionalText(256),
  name: z.looseObject({ givenName: optionalText(256), familyName: optionalText(256) }).nullish(),
  userType: optionalText(256),
  active: z.unknown().optional(),
  emails: z.unknown().optional(),
});

const memberReference = z.looseObject({
  value: z.string().trim().min(1).max(320),
  display: z.string().max(320).optional(),
});
const groupBody = z.looseObject({
  displayName: z.string().trim().min(1, 'displayName is required').max(256),
  externalId: optionalText(256),
  members: z.array(memberReference).max(10_000).nullish(),
});

function parsed<T>(schema: z.ZodType<T>, body: unknown, what: string): T {
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const path = issue && issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
  throw badRequest(`The ${what} is not valid: ${path}${issue?.message ?? 'invalid'}.`, 'invalidValue');
}

/** POST and PUT `/Users` bodies to the attributes kept; `active` defaults to true and takes Entra ID's "True"/"False". */
export function userAttributesOf(body: unknown): ScimUserAttributes {
  const user = parsed(userBody, body, 'user');
  const active = user.active === undefined || user.active === null ? true : scimBoolean(user.active);
  if (active === undefined) throw badRequest('active must be a boolean.', 'invalidValue');
  return {
    userName: user.userName,
    externalId: user.externalId ?? null,
    displayName: user.displayName ?? null,
    givenName: user.name?.givenName ?? null,
    familyName: user.name?.familyName ?? null,
    userType: user.userType ?? null,
    active,
    emails: emailsOf(user.emails),
  };
}

export function groupWriteOf(body: unknown): GroupWrite {
  const group = parsed(groupBody, body, 'group');
  return {
    displayName: group.displayName,
    externalId: group.externalId ?? null,
    members: (group.members ?? []).map((member) => ({ value: member.value, display: member.display })),
  };
}
