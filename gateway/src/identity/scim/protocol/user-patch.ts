import { applyEmailsPatch, type ScimEmail } from './emails.js';
import { isObject, parsePatchTargets, type PatchTarget } from './patch-op.js';
import { scimBoolean } from './scim-boolean.js';
import { ScimError } from './scim-error.js';

/** The User attributes gw keeps; every other attribute an identity provider sends is ignored. */
export interface ScimUserAttributes {
  /** The user's e-mail address and gw identity; required, never empty. */
  userName: string;
  externalId: string | null;
  displayName: string | null;
  /** `name.givenName`. */
  givenName: string | null;
  /** `name.familyName`. */
  familyName: string | null;
  /** The spec's "identity type". */
  userType: string | null;
  active: boolean;
  /** The addresses the identity provider sent, in its order; at most one primary. */
  emails: ScimEmail[];
}

export const userSchema = 'urn:ietf:params:scim:schemas:core:2.0:User';
/** RFC 3696 erratum 1690: an address is at most 64 + 1 + 255 characters. */
export const maxUserNameLength = 320;
export const maxAttributeLength = 256;
// Strings are trimmed before their limits are checked, as POST and PUT bodies are (scim-bodies.ts), so a value stores
// the same whichever method carried it.

type OptionalField = 'externalId' | 'displayName' | 'givenName' | 'familyName' | 'userType';
// Maps, not object literals: a path such as `constructor` must not find Object.prototype's members.
const optionalFields: ReadonlyMap<string, OptionalField> = new Map([
  ['externalid', 'externalId'],
  ['displayname', 'displayName'],
  ['usertype', 'userType'],
]);
const nameFields: ReadonlyMap<string, OptionalField> = new Map([
  ['givenname', 'givenName'],
  ['familyname', 'familyName'],
]);

// Attributes identity providers map by default (Entra ID: title, phoneNumbers, addresses, …; Okta: locale, password on
// password sync) that gw does not keep. Failing on them would stop provisioning, so they are accepted and dropped.
// Emails are kept (emails.ts) but never re-key the user: the identity provider renames a user by changing userName.
const ignoredAttributes = new Set([
  'phonenumbers',
  'addresses',
  'title',
  'nickname',
  'profileurl',
  'locale',
  'preferredlanguage',
  'timezone',
  'password',
  'ims',
  'photos',
  'roles',
  'entitlements',
  'x509certificates',
]);
const ignoredNameParts = new Set(['formatted', 'middlename', 'honorificprefix', 'honorificsuffix']);
// RFC 7643 Id, meta and groups are readOnly (schemas is the message's own). Clients echo them in path-less
// values, where they are ignored; naming one by path is an error.
const readOnlyAttributes = new Set(['id', 'meta', 'groups', 'schemas']);

/**
 * Applies an RFC 7644 §3.5.2 PatchOp body to a user and answers the new attributes; `current` is never mutated. The
 * operations apply in order and all or none take effect, since a failure throws before anything is stored.
 */
export function applyUserPatch(current: ScimUserAttributes, body: unknown): ScimUserAttributes {
  return parsePatchTargets(body, userSchema).reduce(applyTarget, { ...current });
}

function applyTarget(user: ScimUserAttributes, target: PatchTarget): ScimUserAttributes {
  const { path } = target;
  if (path.extension || ignoredAttributes.has(path.attribute)) return user;
  if (readOnlyAttributes.has(path.attribute)) {
    if (target.pathless) return user;
    throw new ScimError(400, `${path.text} is read-only.`, 'mutability');
  }
  if (path.attribute === 'emails') return { ...user, emails: applyEmailsPatch(user.emails, target) };
  if (path.filter !== null)
    throw new ScimError(
      400,
      `The path "${path.text}" filters a single-valued attribute; value filters are supported on emails only.`,
      'invalidPath',
    );
  if (path.attribute === 'name') return applyName(user, target);
  if (path.subAttribute !== null)
    throw new ScimError(400, `${path.attribute} has no sub-attribute "${path.subAttribute}".`, 'invalidPath');
  if (path.attribute === 'username') return { ...user, userName: userNameOf(target) };
  if (path.attribute === 'active') return { ...user, active: activeOf(target) };
  const field = optionalFields.get(path.attribute);
  if (field !== undefined) return { ...user, [field]: optionalTextOf(target, path.text) };
  throw new ScimError(400, `The attribute "${path.text}" is not supported on users.`, 'invalidPath');
}

function applyName(user: ScimUserAttributes, target: PatchTarget): ScimUserAttributes {
  const part = target.path.subAttribute;
  if (part !== null) {
    if (ignoredNameParts.has(part)) return user;
    const field = nameFields.get(part);
    if (field === undefined) throw new ScimError(400, `name has no sub-attribute "${part}".`, 'invalidPath');
    return { ...user, [field]: optionalTextOf(target, `name.${part}`) };
  }
  if (target.op === 'remove' || target.value === null) return { ...user, givenName: null, familyName: null };
  if (!isObject(target.value)) throw new ScimError(400, 'name must be an object.', 'invalidValue');
  // RFC 7644 Sub-attributes left out of a complex value stay as they are.
  let next = user;
  for (const [key, value] of Object.entries(target.value)) {
    const field = nameFields.get(key.toLowerCase());
    if (field !== undefined) next = { ...next, [field]: optionalTextOf({ ...target, value }, `name.${key}`) };
  }
  return next;
}

function userNameOf(target: PatchTarget): string {
  const value = requiredValue(target, 'userName');
  const userName = typeof value === 'string' ? value.trim() : '';
  if (userName === '') throw new ScimError(400, 'userName must be a non-empty string.', 'invalidValue');
  if (userName.length > maxUserNameLength)
    throw new ScimError(400, `userName is longer than ${maxUserNameLength} characters.`, 'invalidValue');
  return userName;
}

function activeOf(target: PatchTarget): boolean {
  const active = scimBoolean(requiredValue(target, 'active'));
  if (active === undefined) throw new ScimError(400, 'active must be true or false.', 'invalidValue');
  return active;
}

/**
 * RFC 7644 Removing a required attribute, or letting it become unassigned (a null value, RFC 7643 §2.5), is
 * 400 `mutability`. userName is required by RFC 7643 §4.1; gw also requires active, since an unknown state cannot
 * decide whether the user may call the gateway.
 */
function requiredValue(target: PatchTarget, name: string): unknown {
  if (target.op === 'remove' || target.value === null)
    throw new ScimError(400, `${name} is required and cannot be removed; replace it instead.`, 'mutability');
  return target.value;
}

function optionalTextOf(target: PatchTarget, name: string): string | null {
  if (target.op === 'remove' || target.value === null) return null;
  if (typeof target.value !== 'string') throw new ScimError(400, `${name} must be a string.`, 'invalidValue');
  const text = target.value.trim();
  if (text.length > maxAttributeLength)
    throw new ScimError(400, `${name} is longer than ${maxAttributeLength} characters.`, 'invalidValue');
  return text;
}
