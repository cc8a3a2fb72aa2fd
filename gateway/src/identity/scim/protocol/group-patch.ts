import { parseScimFilter, type ScimFilter } from './filter.js';
import { isObject, parsePatchTargets, type PatchTarget } from './patch-op.js';
import { ScimError } from './scim-error.js';

export interface ScimGroupAttributes {
  displayName: string;
  externalId: string | null;
  /** SCIM user ids, unique, in the order they were added. */
  memberIds: string[];
}

export const groupSchema = 'urn:ietf:params:scim:schemas:core:2.0:Group';
export const maxGroupMembers = 10_000;
// Strings are trimmed before their limits are checked, as in POST and PUT bodies, so both methods store the same value.
export const maxGroupAttributeLength = 256;
/** As for POST and PUT bodies (scim-bodies.ts), so a member accepted there is accepted here. */
export const maxMemberIdLength = 320;

interface WorkingGroup {
  displayName: string;
  externalId: string | null;
  /** A Set keeps members unique and in insertion order, and makes each add or remove O(1) on large groups. */
  members: ReadonlySet<string>;
}

/**
 * Applies an RFC 7644 §3.5.2 PatchOp body to a group; `current` is never mutated. Adding a present member and removing
 * an absent one succeed unchanged: identity providers retry, and RFC 7644 §3.5.2.1 says an add of an existing value
 * changes nothing. Both IdPs' shapes work: Okta removes `members[value eq "id"]`, Entra ID removes `members` with a
 * value array, and Okta renames with a path-less `{id, displayName}`.
 */
export function applyGroupPatch(current: ScimGroupAttributes, body: unknown): ScimGroupAttributes {
  const start: WorkingGroup = {
    displayName: current.displayName,
    externalId: current.externalId,
    members: new Set(current.memberIds),
  };
  const group = parsePatchTargets(body, groupSchema).reduce(applyTarget, start);
  // A server limit on the resource, not a filter result, so RFC 7644 §3.12's `tooMany` (filters only) does not fit.
  if (group.members.size > maxGroupMembers)
    throw new ScimError(400, `A group may have at most ${maxGroupMembers} members.`, 'invalidValue');
  return { displayName: group.displayName, externalId: group.externalId, memberIds: [...group.members] };
}

function applyTarget(group: WorkingGroup, target: PatchTarget): WorkingGroup {
  const { path } = target;
  // Extension schemas carry nothing gw keeps; as on users, they are accepted and dropped.
  if (path.extension) return group;
  if (path.attribute === 'members') return { ...group, members: applyMembers(group.members, target) };
  if (['id', 'meta', 'schemas'].includes(path.attribute)) {
    // Okta's rename echoes the group's id in a path-less value; naming a read-only attribute by path is an error.
    if (target.pathless) return group;
    throw new ScimError(400, `${path.text} is read-only.`, 'mutability');
  }
  if (path.filter !== null || path.subAttribute !== null)
    throw new ScimError(400, `The path "${path.text}" is not supported on groups.`, 'invalidPath');
  if (path.attribute === 'displayname') return { ...group, displayName: displayNameOf(target) };
  if (path.attribute === 'externalid') return { ...group, externalId: externalIdOf(target) };
  throw new ScimError(
    400,
    `The attribute "${path.text}" is not supported on groups; displayName, externalId and members are.`,
    'invalidPath',
  );
}

function applyMembers(members: ReadonlySet<string>, target: PatchTarget): ReadonlySet<string> {
  const { path, op } = target;
  if (path.subAttribute !== null)
    throw new ScimError(400, `The path "${path.text}" is not supported; use members.`, 'invalidPath');
  if (path.filter !== null) {
    if (op !== 'remove')
      throw new ScimError(400, `A members value filter is supported with remove only, not ${op}.`, 'invalidPath');
    return without(members, memberIdsOfFilter(path.filter));
  }
  if (op === 'replace') return new Set(memberIdsOf(target.value));
  if (op === 'add') return new Set([...members, ...memberIdsOf(target.value)]);
  // RFC 7644 Removing a multi-valued attribute without a filter removes all of its values. Entra ID's
  // remove carries the members to remove as a value instead of a filter.
  if (target.value === undefined || target.value === null) return new Set();
  return without(members, memberIdsOf(target.value));
}

function without(members: ReadonlySet<string>, ids: readonly string[]): ReadonlySet<string> {
  const next = new Set(members);
  for (const id of ids) next.delete(id);
  return next;
}

/**
 * `value eq "<id>"` inside `members[...]`, or several joined by `or`. Members are held as user ids only, so a filter on
 * anything else could not be answered exactly; RFC 7644 gives a path filter that is not supported `invalidFilter`.
 */
function memberIdsOfFilter(text: string): string[] {
  const idsOf = (filter: ScimFilter): string[] => {
    if (filter.kind === 'or') return [...idsOf(filter.left), ...idsOf(filter.right)];
    if (
      filter.kind === 'compare' &&
      filter.operator === 'eq' &&
      filter.path.attribute === 'value' &&
      filter.path.schema === null &&
      filter.path.subAttribute === null &&
      typeof filter.value === 'string'
    ) {
      return [memberIdOf(filter.value)];
    }
    throw new ScimError(
      400,
      `The members filter "${text}" is not supported; use members[value eq "<user id>"], optionally joined with or.`,
      'invalidFilter',
    );
  };
  return idsOf(parseScimFilter(text));
}

/** A members value: an array of `{value, display?, $ref?}` (a lone object is taken as one); null is no members. */
function memberIdsOf(value: unknown): string[] {
  if (value === null) return [];
  const references = Array.isArray(value) ? (value as unknown[]) : [value];
  return references.map((reference) => {
    if (!isObject(reference)) throw new ScimError(400, 'Each member must be an object with a value.', 'invalidValue');
    return memberIdOf(reference.value);
  });
}

function memberIdOf(value: unknown): string {
  const id = typeof value === 'string' ? value.trim() : '';
  if (id === '') throw new ScimError(400, 'A member value must be a non-empty user id.', 'invalidValue');
  if (id.length > maxMemberIdLength)
    throw new ScimError(400, `A member value is longer than ${maxMemberIdLength} characters.`, 'invalidValue');
  return id;
}

function displayNameOf(target: PatchTarget): string {
  // RFC 7643 §4.2 requires displayName; RFC 7644 §3.5.2.2 makes removing a required attribute `mutability`.
  if (target.op === 'remove' || target.value === null)
    throw new ScimError(400, 'displayName is required and cannot be removed; replace it instead.', 'mutability');
  const displayName = typeof target.value === 'string' ? target.value.trim() : '';
  if (displayName === '') throw new ScimError(400, 'displayName must be a non-empty string.', 'invalidValue');
  if (displayName.length > maxGroupAttributeLength)
    throw new ScimError(400, `displayName is longer than ${maxGroupAttributeLength} characters.`, 'invalidValue');
  return displayName;
}

function externalIdOf(target: PatchTarget): string | null {
  if (target.op === 'remove' || target.value === null) return null;
  if (typeof target.value !== 'string') throw new ScimError(400, 'externalId must be a string.', 'invalidValue');
  const externalId = target.value.trim();
  if (externalId.length > maxGroupAttributeLength)
    throw new ScimError(400, `externalId is longer than ${maxGroupAttributeLength} characters.`, 'invalidValue');
  return externalId;
}
