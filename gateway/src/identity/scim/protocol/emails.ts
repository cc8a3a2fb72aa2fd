import { findAttribute, userResourceSchema } from './attribute-schema.js';
import { compileValueFilter } from './filter-evaluate.js';
import { parseScimFilter, type ScimFilter } from './filter.js';
import { isObject, type PatchTarget } from './patch-op.js';
import { scimBoolean } from './scim-boolean.js';
import { ScimError } from './scim-error.js';

/**
 * A user's e-mail address as the identity provider sent it. Only RFC 7643's four sub-attributes are kept; anything
 * else in the value is dropped. `userName` stays the user's identity: an address here never re-keys the user.
 */
export interface ScimEmail {
  value: string;
  type: string | null;
  primary: boolean;
  display: string | null;
}

export const maxEmails = 20;
export const maxEmailLength = 320;
export const maxEmailPartLength = 256;

const emailsAttribute = findAttribute(userResourceSchema.attributes, 'emails');
type Part = 'value' | 'type' | 'primary' | 'display';
const parts: readonly Part[] = ['value', 'type', 'primary', 'display'];

const invalid = (detail: string) => new ScimError(400, detail, 'invalidValue');

/** `emails` from a POST or PUT body or a patch value: an array of values (a lone object is one), null is none. */
export function emailsOf(raw: unknown): ScimEmail[] {
  if (raw === undefined || raw === null) return [];
  const values = (Array.isArray(raw) ? (raw as unknown[]) : [raw]).map(emailOf);
  return checked(values);
}

function emailOf(raw: unknown): ScimEmail {
  if (!isObject(raw)) throw invalid('Each of emails must be an object with a value.');
  const email: ScimEmail = { value: '', type: null, primary: false, display: null };
  for (const [key, part] of Object.entries(raw)) {
    const name = parts.find((candidate) => candidate === key.toLowerCase());
    if (name !== undefined) Object.assign(email, { [name]: partOf(name, part) });
  }
  if (email.value === '') throw invalid('Each of emails must have a non-empty value.');
  return email;
}

function partOf(name: Part, raw: unknown): string | boolean | null {
  if (name === 'primary') {
    const primary = raw === null ? false : scimBoolean(raw);
    if (primary === undefined) throw invalid('emails.primary must be true or false.');
    return primary;
  }
  if (raw === null) return name === 'value' ? '' : null;
  if (typeof raw !== 'string') throw invalid(`emails.${name} must be a string.`);
  const text = raw.trim();
  const limit = name === 'value' ? maxEmailLength : maxEmailPartLength;
  if (text.length > limit) throw invalid(`emails.${name} is longer than ${limit} characters.`);
  return name === 'value' || text !== '' ? text : null;
}

/** RFC 7643: at most one value is primary; the store keeps no more than `maxEmails`. */
function checked(emails: ScimEmail[]): ScimEmail[] {
  if (emails.length > maxEmails) throw invalid(`A user may have at most ${maxEmails} emails.`);
  if (emails.filter((email) => email.primary).length > 1) throw invalid('At most one of emails may be primary.');
  return emails;
}

const sameEmail = (left: ScimEmail, right: ScimEmail) =>
  left.value.toLowerCase() === right.value.toLowerCase() &&
  (left.type ?? '').toLowerCase() === (right.type ?? '').toLowerCase();

/** A new primary value takes the flag from the others (RFC 7644: the server clears the previous primary). */
function withPrimary(kept: readonly ScimEmail[], added: readonly ScimEmail[]): ScimEmail[] {
  const primaryAdded = added.some((email) => email.primary);
  return [...kept.map((email) => (primaryAdded ? { ...email, primary: false } : email)), ...added];
}

/**
 * One PatchOp target on `emails` (RFC 7644 PATCH): the whole list (`emails`), the values a filter selects
 * (`emails[type eq "work"]`), or one sub-attribute of them (`emails[type eq "work"].value`, as Entra ID sends).
 * Adding a value already present changes nothing; replacing a sub-attribute of a `type eq "…"` selection that matches
 * nothing adds that value, since Entra ID sets a user's work address that way.
 */
export function applyEmailsPatch(current: readonly ScimEmail[], target: PatchTarget): ScimEmail[] {
  const { op, path } = target;
  if (path.filter === null && path.subAttribute === null) {
    if (op === 'replace') return emailsOf(target.value);
    if (op === 'add')
      return checked(
        withPrimary(
          current,
          emailsOf(target.value).filter((email) => !current.some((present) => sameEmail(present, email))),
        ),
      );
    if (target.value === undefined || target.value === null) return [];
    const removed = emailsOf(target.value);
    return current.filter((email) => !removed.some((gone) => sameEmail(gone, email)));
  }
  const filter = path.filter === null ? null : parseScimFilter(path.filter);
  const selected = filter === null ? () => true : selector(filter);
  const part = partNamed(path.subAttribute);
  if (op === 'remove') {
    // Without a sub-attribute, or naming `value` (an address without one is nothing), the selected values go.
    if (part === null || part === 'value') return current.filter((email) => !selected(email));
    return current.map((email) => (selected(email) ? unset(email, part) : email));
  }
  if (part === null) {
    if (op === 'add')
      throw new ScimError(
        400,
        `Add to emails without a filter; "${path.text}" selects existing values.`,
        'invalidPath',
      );
    const replacement = emailsOf(target.value);
    if (!current.some(selected)) throw new ScimError(400, `No value of emails matches "${path.text}".`, 'noTarget');
    return checked(
      withPrimary(
        current.filter((email) => !selected(email)),
        replacement,
      ),
    );
  }
  return setPart(current, part, partOf(part, target.value), selected, filter, path.text);
}

function partNamed(subAttribute: string | null): Part | null {
  if (subAttribute === null) return null;
  const part = parts.find((candidate) => candidate === subAttribute);
  if (part === undefined) throw new ScimError(400, `emails has no sub-attribute "${subAttribute}".`, 'invalidPath');
  return part;
}

function selector(filter: ScimFilter): (email: ScimEmail) => boolean {
  if (!emailsAttribute) throw new ScimError(500, 'The emails attribute is missing from the user schema.');
  const matches = compileValueFilter(filter, emailsAttribute);
  return (email) => matches({ ...email });
}

function unset(email: ScimEmail, part: Part): ScimEmail {
  return part === 'primary' ? { ...email, primary: false } : { ...email, [part]: null };
}

function setPart(
  current: readonly ScimEmail[],
  part: Part,
  value: string | boolean | null,
  selected: (email: ScimEmail) => boolean,
  filter: ScimFilter | null,
  text: string,
): ScimEmail[] {
  if (part === 'value' && (value === null || value === ''))
    throw invalid('emails.value cannot be emptied; remove the value instead.');
  if (!current.some(selected)) {
    const type = filter === null ? null : typeOfSelection(filter);
    if (part !== 'value' || (filter !== null && type === undefined))
      throw new ScimError(400, `No value of emails matches "${text}".`, 'noTarget');
    return checked([...current, { value: String(value), type: type ?? null, primary: false, display: null }]);
  }
  const next = current.map((email) => (selected(email) ? { ...email, [part]: value } : email));
  // Setting primary on the selection takes it from every other value.
  return checked(
    part === 'primary' && value === true
      ? next.map((email) => (selected(email) ? email : { ...email, primary: false }))
      : next,
  );
}

/** The type a `type eq "work"` selection names; undefined for any other filter. */
function typeOfSelection(filter: ScimFilter): string | undefined {
  if (
    filter.kind === 'compare' &&
    filter.operator === 'eq' &&
    filter.path.attribute === 'type' &&
    typeof filter.value === 'string'
  )
    return filter.value;
  return undefined;
}
