import { ScimError } from './scim-error.js';

/** One `eq` comparison; `attribute` is lowercased and canonical (`username`, `emails.value`, `urn:…` extensions kept). */
export type ScimFilter = { attribute: string; value: string | boolean | null };

export const maxFilterLength = 1000;

const supportedForm = 'Only a single comparison `<attribute> eq <value>` is supported, with a double-quoted string, true, false or null as the value; and, or, not, parentheses and other operators are not.';

// RFC 7644 §3.4.2.2 ABNF, narrowed: an attribute path (optionally URN-prefixed, optionally with one `[...]` value filter
// followed by a sub-attribute), one operator, then the rest is the value.
const comparison = /^((?:urn:[a-z0-9.:-]+:)?[a-z][\w-]*(?:\[[^\]]*\]\.[a-z][\w-]*|\.[a-z][\w-]*)?)\s+(\S+)(?:\s+(.*))?$/i;
const coreSchemaPrefix = /^urn:ietf:params:scim:schemas:core:2\.0:(?:user|group):/i;
// The only value filters identity providers put inside a filter's attribute path (`emails[type eq "work"].value`).
const harmlessValueFilter = /^\[\s*(?:type\s+eq\s+"[^"\\]*"|primary\s+eq\s+true)\s*\]/i;

/**
 * Parses the `filter` query parameter (RFC 7644 §3.4.2.2) as far as provisioning needs: `userName eq "a@b.c"` and
 * the like. Anything else throws 400 `invalidFilter` naming what is supported.
 */
export function parseScimFilter(text: string): ScimFilter {
  if (text.length > maxFilterLength) throw invalidFilter(`The filter is longer than ${maxFilterLength} characters.`);
  const trimmed = text.trim();
  if (trimmed === '') throw invalidFilter('The filter is empty.');
  const match = comparison.exec(trimmed);
  const [, path, operator, rawValue] = match ?? [];
  if (path === undefined || operator === undefined) throw invalidFilter(`The filter "${trimmed}" is not a comparison.`);
  if (operator.toLowerCase() !== 'eq') throw invalidFilter(`The operator "${operator}" is not supported.`);
  return { attribute: canonicalAttribute(path), value: comparisonValue(rawValue?.trim() ?? '') };
}

function canonicalAttribute(path: string): string {
  const bracket = path.indexOf('[');
  if (bracket === -1) return path.replace(coreSchemaPrefix, '').toLowerCase();
  const valueFilter = harmlessValueFilter.exec(path.slice(bracket));
  if (valueFilter === null) throw invalidFilter(`The value filter in "${path}" is not supported; only [type eq "…"] and [primary eq true] are.`);
  // The type/primary selector narrows which e-mail matches; dropping it only widens a lookup on a unique value.
  return (path.slice(0, bracket) + path.slice(bracket + valueFilter[0].length)).replace(coreSchemaPrefix, '').toLowerCase();
}

function comparisonValue(raw: string): ScimFilter['value'] {
  // RFC 7644 §3.4.2.2 takes its literals from JSON; RFC 5234 makes ABNF literals case-insensitive, hence TRUE works.
  const lowered = raw.toLowerCase();
  if (lowered === 'true') return true;
  if (lowered === 'false') return false;
  if (lowered === 'null') return null;
  if (raw.startsWith('"')) {
    try {
      return JSON.parse(raw) as string;
    } catch {
      // Falls through: an unterminated string, or a string followed by `and …`/`or …`.
    }
  }
  throw invalidFilter(raw === '' ? 'The comparison has no value.' : `The value ${raw} is not a single double-quoted string, true, false or null.`);
}

function invalidFilter(reason: string): ScimError {
  return new ScimError(400, `${reason} ${supportedForm}`, 'invalidFilter');
}
