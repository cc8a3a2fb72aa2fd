import { describe, expect, it } from 'vitest';
import type { ScimFilter } from './filter-ast.js';
import { maxFilterDepth, maxFilterLength, parseScimFilter } from './filter.js';
import { thrownBy } from '../../../../test/scim-patch-support.js';

const path = (text: string, attribute: string, subAttribute: string | null = null, schema: string | null = null) => ({
  text,
  schema,
  attribute,
  subAttribute,
});
const compare = (
  attribute: string,
  operator: string,
  value: unknown,
  text = attribute,
  subAttribute: string | null = null,
): ScimFilter => ({ kind: 'compare', path: path(text, attribute, subAttribute), operator, value }) as ScimFilter;

describe('parseScimFilter: the example filters of RFC 7644 (filtering section), verbatim', () => {
  // Each example as the RFC prints it after "filter=", the two that wrap in the RFC joined by one space.
  it.each([
    'userName eq "bjensen"',
    'name.familyName co "O\'Malley"',
    'userName sw "J"',
    'urn:ietf:params:scim:schemas:core:2.0:User:userName sw "J"',
    'title pr',
    'meta.lastModified gt "2011-05-13T04:42:34Z"',
    'meta.lastModified ge "2011-05-13T04:42:34Z"',
    'meta.lastModified lt "2011-05-13T04:42:34Z"',
    'meta.lastModified le "2011-05-13T04:42:34Z"',
    'title pr and userType eq "Employee"',
    'title pr or userType eq "Intern"',
    'schemas eq "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User"',
    'userType eq "Employee" and (emails co "example.com" or emails.value co "example.org")',
    'userType ne "Employee" and not (emails co "example.com" or emails.value co "example.org")',
    'userType eq "Employee" and (emails.type eq "work")',
    'userType eq "Employee" and emails[type eq "work" and value co "@example.com"]',
    'emails[type eq "work" and value co "@example.com"] or ims[type eq "xmpp" and value co "@foo.com"]',
  ])('%s', (text) => {
    expect(() => parseScimFilter(text)).not.toThrow();
  });

  it('builds the tree the grammar gives: not over and, and over or, brackets over both', () => {
    expect(
      parseScimFilter('userType ne "Employee" and not (emails co "example.com" or emails.value co "example.org")'),
    ).toEqual({
      kind: 'and',
      left: compare('usertype', 'ne', 'Employee', 'userType'),
      right: {
        kind: 'not',
        filter: {
          kind: 'or',
          left: compare('emails', 'co', 'example.com'),
          right: compare('emails', 'co', 'example.org', 'emails.value', 'value'),
        },
      },
    });
    expect(parseScimFilter('title pr or userType eq "Intern" and active eq true')).toEqual({
      kind: 'or',
      left: { kind: 'present', path: path('title', 'title') },
      right: {
        kind: 'and',
        left: compare('usertype', 'eq', 'Intern', 'userType'),
        right: compare('active', 'eq', true),
      },
    });
    expect(parseScimFilter('emails[type eq "work" and value co "@example.com"]')).toEqual({
      kind: 'valuePath',
      path: path('emails', 'emails'),
      filter: { kind: 'and', left: compare('type', 'eq', 'work'), right: compare('value', 'co', '@example.com') },
    });
  });

  it('reads schema URN prefixes, sub-attributes and names in any case', () => {
    expect(parseScimFilter('urn:ietf:params:scim:schemas:core:2.0:User:name.familyName EQ "x"')).toMatchObject({
      path: { schema: 'urn:ietf:params:scim:schemas:core:2.0:user', attribute: 'name', subAttribute: 'familyname' },
      operator: 'eq',
    });
    expect(parseScimFilter('USERNAME Sw "J" AND Not (Active Eq FALSE)')).toMatchObject({
      kind: 'and',
      right: { kind: 'not', filter: { value: false } },
    });
  });

  it.each([
    ['displayName eq "say \\"hi\\" \\\\ bye"', 'say "hi" \\ bye'],
    ['displayName eq "a and b or c)"', 'a and b or c)'],
    ['displayName eq "caf\\u00e9 \\t\\/"', 'café \t/'],
    ['displayName eq ""', ''],
    ['displayName eq "emails[type eq \\"work\\"]"', 'emails[type eq "work"]'],
  ])('decodes the JSON string in %s', (text, value) => {
    expect(parseScimFilter(text)).toMatchObject({ kind: 'compare', value });
  });

  it.each([
    ['active eq true', true],
    ['active eq False', false],
    ['externalId eq null', null],
    ['meta.version eq 42', 42],
    ['x eq -1.5e3', -1500],
    ['x gt 0', 0],
  ])('reads the literal in %s', (text, value) => {
    expect(parseScimFilter(text)).toMatchObject({ value });
  });

  it('keeps the sub-attribute identity providers put after a value filter on the same value', () => {
    expect(parseScimFilter('emails[type eq "work"].value eq "ada@example.com"')).toEqual({
      kind: 'valuePath',
      path: path('emails', 'emails'),
      filter: { kind: 'and', left: compare('type', 'eq', 'work'), right: compare('value', 'eq', 'ada@example.com') },
    });
  });

  it('accepts a filter of exactly the maximum length and nesting', () => {
    const prefix = 'userName eq "';
    const text = `${prefix}${'a'.repeat(maxFilterLength - prefix.length - 1)}"`;
    expect(text).toHaveLength(maxFilterLength);
    expect(parseScimFilter(text)).toMatchObject({ kind: 'compare' });
    const nested = `${'('.repeat(maxFilterDepth)}userName eq "a"${')'.repeat(maxFilterDepth)}`;
    expect(parseScimFilter(nested)).toMatchObject({ kind: 'compare' });
  });
});

describe('parseScimFilter refuses what is not a filter with 400 invalidFilter', () => {
  it.each([
    ['an empty filter', ''],
    ['a blank filter', '   '],
    ['a filter over the length limit', `userName eq "${'a'.repeat(maxFilterLength)}"`],
    ['nesting over the limit', `${'('.repeat(maxFilterDepth + 1)}a eq "b"${')'.repeat(maxFilterDepth + 1)}`],
    ['an unknown operator', 'userName lw "ada"'],
    ['an unquoted value', 'userName eq ada'],
    ['a single-quoted value', "userName eq 'ada'"],
    ['an unterminated string', 'userName eq "ada'],
    ['an escape JSON does not have', 'userName eq "a\\qb"'],
    ['a raw control character in a string', 'userName eq "a\u0001b"'],
    ['a missing value', 'userName eq'],
    ['a bare attribute', 'userName'],
    ['no space before the value', 'userName eq"ada"'],
    ['no space before and', 'userName eq "a"and active eq true'],
    ['a dangling and', 'userName eq "a" and'],
    ['a leading or', 'or userName eq "a"'],
    ['two expressions with no logic between', 'userName eq "a" active eq true'],
    ['an unclosed parenthesis', '(userName eq "a"'],
    ['an unopened parenthesis', 'userName eq "a")'],
    ['empty parentheses', '()'],
    ['not without parentheses', 'not userName eq "a"'],
    ['an unclosed value filter', 'emails[type eq "work"'],
    ['a nested value filter', 'emails[type[value eq "x"] eq "work"]'],
    ['a value filter after a sub-attribute', 'name.familyName[value eq "x"]'],
    ['two sub-attributes', 'name.familyName.first eq "x"'],
    ['an attribute name starting with a digit', '1userName eq "x"'],
    ['a URN that is not one', 'urn:userName eq "x"'],
    ['co with a number', 'userName co 42'],
    ['sw with true', 'userName sw true'],
    ['gt with a boolean', 'active gt true'],
    ['le with null', 'meta.lastModified le null'],
    ['a mistyped literal', 'active eq trul'],
  ])('%s', (_case, text) => {
    const error = thrownBy(() => parseScimFilter(text));
    expect(error.status).toBe(400);
    expect(error.scimType).toBe('invalidFilter');
    expect(error.message.length).toBeGreaterThan(10);
  });

  it('says where the filter went wrong', () => {
    expect(thrownBy(() => parseScimFilter('userName lw "ada"')).message).toBe(
      '"lw" is not a filter operator; use eq, ne, co, sw, ew, gt, ge, lt, le or pr.',
    );
    expect(thrownBy(() => parseScimFilter('userName eq "a" active eq true')).message).toContain('character 17');
  });
});
