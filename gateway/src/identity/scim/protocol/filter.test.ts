import { describe, expect, it } from 'vitest';
import { maxFilterLength, parseScimFilter } from './filter.js';
import { thrownBy } from './scim-test-support.js';

describe('parseScimFilter accepts what identity providers send', () => {
  it.each([
    // Okta's user lookup before create (GET /Users?filter=userName%20eq%20%22test.user%40okta.local%22, decoded).
    ['userName eq "test.user@okta.local"', 'username', 'test.user@okta.local'],
    // Entra ID's user and group lookups.
    ['userName eq "Test_User_00aa00aa-bb11-cc22-dd33-44ee44ee44ee"', 'username', 'Test_User_00aa00aa-bb11-cc22-dd33-44ee44ee44ee'],
    ['externalId eq "0a21f0f2-8d2a-4f8e-bf98-7363c4aed4ef"', 'externalid', '0a21f0f2-8d2a-4f8e-bf98-7363c4aed4ef'],
    ['displayName eq "displayName"', 'displayname', 'displayName'],
    ['emails[type eq "work"].value eq "ada@example.com"', 'emails.value', 'ada@example.com'],
    ['emails[primary eq true].value eq "ada@example.com"', 'emails.value', 'ada@example.com'],
    ['emails.value eq "ada@example.com"', 'emails.value', 'ada@example.com'],
    ['id eq "2819c223-7f76-453a-919d-413861904646"', 'id', '2819c223-7f76-453a-919d-413861904646'],
    // Case-insensitive attribute names and operator, URN prefixes and surrounding whitespace (RFC 7644 §3.4.2.2).
    ['USERNAME EQ "Ada@Example.com"', 'username', 'Ada@Example.com'],
    ['userName Eq "a@b.c"', 'username', 'a@b.c'],
    ['urn:ietf:params:scim:schemas:core:2.0:User:userName eq "a@b.c"', 'username', 'a@b.c'],
    ['urn:ietf:params:scim:schemas:core:2.0:Group:displayName eq "Admins"', 'displayname', 'Admins'],
    ['urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:employeeNumber eq "7"', 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:user:employeenumber', '7'],
    ['  userName   eq   "a@b.c"  ', 'username', 'a@b.c'],
    ['name.familyName eq "O\'Brien"', 'name.familyname', "O'Brien"],
    // The value is a JSON string: escapes decode, and a quoted " and or " inside it is data, not logic.
    ['displayName eq "say \\"hi\\" \\\\ bye"', 'displayname', 'say "hi" \\ bye'],
    ['displayName eq "a and b or c"', 'displayname', 'a and b or c'],
    ['displayName eq "caf\\u00e9"', 'displayname', 'café'],
    ['displayName eq ""', 'displayname', ''],
  ])('%s', (text, attribute, value) => {
    expect(parseScimFilter(text)).toEqual({ attribute, value });
  });

  it.each([
    ['active eq true', true],
    ['active eq false', false],
    ['active eq TRUE', true],
    ['externalId eq null', null],
  ])('reads the JSON literal in %s', (text, value) => {
    expect(parseScimFilter(text).value).toBe(value);
  });

  it('accepts a filter of exactly the maximum length', () => {
    const prefix = 'userName eq "';
    const text = `${prefix}${'a'.repeat(maxFilterLength - prefix.length - 1)}"`;
    expect(text).toHaveLength(maxFilterLength);
    expect(parseScimFilter(text).attribute).toBe('username');
  });
});

describe('parseScimFilter rejects everything else with 400 invalidFilter', () => {
  it.each([
    ['an empty filter', ''],
    ['a blank filter', '   '],
    ['a filter over the length limit', `userName eq "${'a'.repeat(maxFilterLength)}"`],
    ['co', 'userName co "ada"'],
    ['sw', 'userName sw "ada"'],
    ['ne', 'userName ne "ada"'],
    ['gt', 'meta.lastModified gt "2011-05-13T04:42:34Z"'],
    ['pr', 'title pr'],
    ['and', 'userName eq "a" and active eq true'],
    ['or', 'userName eq "a" or userName eq "b"'],
    ['not', 'not (userName eq "a")'],
    ['parentheses', '(userName eq "a")'],
    ['an unquoted value', 'userName eq ada'],
    ['a single-quoted value', "userName eq 'ada'"],
    ['a number', 'userName eq 42'],
    ['an unterminated string', 'userName eq "ada'],
    ['a missing value', 'userName eq'],
    ['a bare attribute', 'userName'],
    ['no space before the value', 'userName eq"ada"'],
    ['an unsupported value filter', 'emails[value co "x"].value eq "a@b.c"'],
    ['a value filter with logic', 'emails[type eq "work" or primary eq true].value eq "a@b.c"'],
    ['a value filter without a sub-attribute', 'emails[type eq "work"] eq "a@b.c"'],
  ])('%s', (_case, text) => {
    const error = thrownBy(() => parseScimFilter(text));
    expect(error.status).toBe(400);
    expect(error.scimType).toBe('invalidFilter');
    expect(error.message).toContain('Only a single comparison `<attribute> eq <value>` is supported');
  });

  it('names the operator it does not support', () => {
    expect(thrownBy(() => parseScimFilter('userName co "ada"')).message).toMatch(/^The operator "co" is not supported\./);
  });
});
