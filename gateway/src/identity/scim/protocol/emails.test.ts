import { describe, expect, it } from 'vitest';
import { emailsOf, maxEmails, type ScimEmail } from './emails.js';
import type { ScimErrorType } from './scim-error.js';
import { patch, thrownBy } from '../../../../test/scim-patch-support.js';
import { applyUserPatch, type ScimUserAttributes } from './user-patch.js';

const email = (value: string, type: string | null, primary = false): ScimEmail => ({
  value,
  type,
  primary,
  display: null,
});
const ada: ScimUserAttributes = Object.freeze({
  userName: 'ada@example.com',
  externalId: null,
  displayName: null,
  givenName: null,
  familyName: null,
  userType: null,
  active: true,
  emails: [email('ada@example.com', 'work', true), email('ada@home.example', 'home')],
});
const emailsAfter = (...operations: unknown[]) => applyUserPatch(ada, patch(...operations)).emails;

describe('emailsOf reads the addresses of a POST or PUT body', () => {
  it('keeps value, type, primary and display, trimmed, and drops the rest', () => {
    expect(
      emailsOf([
        { value: ' a@b.c ', type: 'work', primary: 'True', display: 'A', verified: true, Operation: 'x' },
        { VALUE: 'd@e.f' },
      ]),
    ).toEqual([{ value: 'a@b.c', type: 'work', primary: true, display: 'A' }, email('d@e.f', null)]);
    expect(emailsOf(null)).toEqual([]);
    expect(emailsOf({ value: 'a@b.c' })).toEqual([email('a@b.c', null)]);
  });

  it.each([
    ['a value that is not an object', ['a@b.c']],
    ['a missing value', [{ type: 'work' }]],
    ['an empty value', [{ value: '  ' }]],
    ['a number as value', [{ value: 7 }]],
    [
      'two primaries',
      [
        { value: 'a@b.c', primary: true },
        { value: 'd@e.f', primary: true },
      ],
    ],
    ['a primary that is not a boolean', [{ value: 'a@b.c', primary: 'yes' }]],
    ['too many addresses', Array.from({ length: maxEmails + 1 }, (_, index) => ({ value: `${index}@b.c` }))],
    ['an address over the length limit', [{ value: `${'a'.repeat(320)}@b.c` }]],
  ])('refuses %s with 400 invalidValue', (_case, raw) => {
    const error = thrownBy(() => emailsOf(raw));
    expect([error.status, error.scimType]).toEqual([400, 'invalidValue']);
  });
});

describe('PATCH on emails', () => {
  it.each<[string, unknown[], ScimEmail[]]>([
    [
      'replaces the list',
      [{ op: 'replace', path: 'emails', value: [{ value: 'x@y.z', type: 'other' }] }],
      [email('x@y.z', 'other')],
    ],
    [
      'adds a value',
      [{ op: 'add', path: 'emails', value: [{ value: 'x@y.z', type: 'other' }] }],
      [...ada.emails, email('x@y.z', 'other')],
    ],
    [
      'adds a present value once',
      [{ op: 'add', path: 'emails', value: [{ value: 'ADA@example.com', type: 'work' }] }],
      ada.emails,
    ],
    [
      'moves primary to an added primary value',
      [{ op: 'add', path: 'emails', value: { value: 'x@y.z', primary: true } }],
      [email('ada@example.com', 'work'), email('ada@home.example', 'home'), email('x@y.z', null, true)],
    ],
    ['removes every value', [{ op: 'remove', path: 'emails' }], []],
    [
      'removes the values listed',
      [{ op: 'remove', path: 'emails', value: [{ value: 'ada@home.example', type: 'home' }] }],
      [ada.emails[0]],
    ],
    [
      'removes the values a filter selects',
      [{ op: 'remove', path: 'emails[type eq "home" or value ew ".org"]' }],
      [ada.emails[0]],
    ],
    [
      'removes a value by its value sub-attribute',
      [{ op: 'remove', path: 'emails[primary eq true].value' }],
      [ada.emails[1]],
    ],
    [
      'clears another sub-attribute',
      [{ op: 'remove', path: 'emails[type eq "home"].type' }],
      [ada.emails[0], email('ada@home.example', null)],
    ],
    [
      'sets the value of the selected address (Entra ID)',
      [{ op: 'Replace', path: 'emails[type eq "work"].value', value: 'ada@example.org' }],
      [email('ada@example.org', 'work', true), ada.emails[1]],
    ],
    [
      'adds a work address Entra ID sets on a user without one',
      [{ op: 'replace', path: 'emails[type eq "other"].value', value: 'o@x.y' }],
      [...ada.emails, email('o@x.y', 'other')],
    ],
    [
      'moves primary with a sub-attribute replace',
      [{ op: 'replace', path: 'emails[type eq "home"].primary', value: true }],
      [email('ada@example.com', 'work'), email('ada@home.example', 'home', true)],
    ],
    [
      'replaces the selected values whole',
      [{ op: 'replace', path: 'emails[type eq "home"]', value: { value: 'h@x.y', type: 'home' } }],
      [ada.emails[0], email('h@x.y', 'home')],
    ],
    [
      'sets a sub-attribute on every value without a filter',
      [{ op: 'replace', path: 'emails.display', value: 'Ada' }],
      ada.emails.map((value) => ({ ...value, display: 'Ada' })),
    ],
    [
      'reads a path-less emails value',
      [{ op: 'replace', value: { emails: [{ value: 'p@x.y', primary: true }] } }],
      [email('p@x.y', null, true)],
    ],
  ])('%s', (_case, operations, expected) => {
    expect(emailsAfter(...operations)).toEqual(expected);
  });

  it('never re-keys the user', () => {
    expect(
      applyUserPatch(ada, patch({ op: 'replace', path: 'emails[type eq "work"].value', value: 'new@example.com' }))
        .userName,
    ).toBe('ada@example.com');
  });

  it.each<[string, unknown, ScimErrorType]>([
    [
      'a filter that selects nothing on replace',
      { op: 'replace', path: 'emails[value eq "nobody@x.y"].value', value: 'a@b.c' },
      'noTarget',
    ],
    [
      'a whole-value replace that selects nothing',
      { op: 'replace', path: 'emails[type eq "pager"]', value: { value: 'a@b.c' } },
      'noTarget',
    ],
    [
      'a filtered add without a sub-attribute',
      { op: 'add', path: 'emails[type eq "work"]', value: { value: 'a@b.c' } },
      'invalidPath',
    ],
    [
      'an unknown sub-attribute',
      { op: 'replace', path: 'emails[type eq "work"].verified', value: true },
      'invalidPath',
    ],
    ['a filter that is not one', { op: 'remove', path: 'emails[type eq]' }, 'invalidFilter'],
    ['a filter on a sub-attribute emails lacks', { op: 'remove', path: 'emails[country eq "x"]' }, 'invalidFilter'],
    ['an emptied value', { op: 'replace', path: 'emails[type eq "work"].value', value: '' }, 'invalidValue'],
    [
      'a second primary',
      {
        op: 'add',
        path: 'emails',
        value: [
          { value: 'a@b.c', primary: true },
          { value: 'd@e.f', primary: true },
        ],
      },
      'invalidValue',
    ],
  ])('refuses %s', (_case, operation, scimType) => {
    const error = thrownBy(() => emailsAfter(operation));
    expect([error.status, error.scimType]).toEqual([400, scimType]);
  });
});
