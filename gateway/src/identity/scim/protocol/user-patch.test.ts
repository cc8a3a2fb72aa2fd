import { describe, expect, it } from 'vitest';
import { patchOpSchema } from './patch-op.js';
import { ScimError, type ScimErrorType } from './scim-error.js';
import { applyUserPatch, maxAttributeLength, maxUserNameLength, type ScimUserAttributes } from './user-patch.js';
import { patch, thrownBy } from '../../../../test/scim-patch-support.js';

const ada: ScimUserAttributes = Object.freeze({
  userName: 'ada@example.com',
  externalId: '00ujl29u0le5T6Aj10h7',
  displayName: 'Ada Lovelace',
  givenName: 'Ada',
  familyName: 'Lovelace',
  userType: 'Employee',
  active: true,
  emails: [{ value: 'ada@example.com', type: 'work', primary: true, display: null }],
});
const workEmail = (value: string) => ({ emails: [{ value, type: 'work', primary: true, display: null }] });

// Request bodies as Okta (developer.okta.com, "Okta and SCIM Version 2.0") and Microsoft Entra ID (learn.microsoft.com,
// "Develop a SCIM endpoint" and "Known issues … SCIM 2.0 protocol compliance") document sending them.
const goldenCases: ReadonlyArray<[string, unknown, Partial<ScimUserAttributes>]> = [
  [
    'Okta deactivates a user',
    { schemas: [patchOpSchema], Operations: [{ op: 'replace', value: { active: false } }] },
    { active: false },
  ],
  [
    'Okta syncs a password, which gw does not keep',
    { schemas: [patchOpSchema], Operations: [{ op: 'replace', value: { password: 't1meMa$heen' } }] },
    {},
  ],
  [
    'Entra ID disables a user',
    { Operations: [{ op: 'Replace', path: 'active', value: false }], schemas: [patchOpSchema] },
    { active: false },
  ],
  [
    'Entra ID disables a user without aadOptscim062020',
    { schemas: [patchOpSchema], Operations: [{ op: 'Replace', path: 'active', value: 'False' }] },
    { active: false },
  ],
  [
    'Entra ID re-enables a user with a string',
    { schemas: [patchOpSchema], Operations: [{ op: 'Replace', path: 'active', value: 'True' }] },
    { active: true },
  ],
  [
    'Entra ID updates multi-valued properties (the work address changes, userName does not)',
    {
      schemas: [patchOpSchema],
      Operations: [
        { op: 'Replace', path: 'emails[type eq "work"].value', value: 'updatedEmail@microsoft.com' },
        { op: 'Replace', path: 'name.familyName', value: 'updatedFamilyName' },
      ],
    },
    { familyName: 'updatedFamilyName', ...workEmail('updatedEmail@microsoft.com') },
  ],
  [
    'Entra ID renames a user',
    {
      schemas: [patchOpSchema],
      Operations: [{ op: 'Replace', path: 'userName', value: '5b50642d-79fc-4410-9e90-4c077cdd1a59@testuser.com' }],
    },
    { userName: '5b50642d-79fc-4410-9e90-4c077cdd1a59@testuser.com' },
  ],
  [
    'Entra ID adds a single-valued attribute gw does not keep',
    { schemas: [patchOpSchema], Operations: [{ op: 'Add', path: 'nickName', value: 'Babs' }] },
    {},
  ],
  [
    'Entra ID replaces several attributes without aadOptscim062020',
    {
      schemas: [patchOpSchema],
      Operations: [
        { op: 'Replace', path: 'displayName', value: 'Pvlo' },
        { op: 'Replace', path: 'emails[type eq "work"].value', value: 'TestBcwqnm@test.microsoft.com' },
        { op: 'Replace', path: 'name.givenName', value: 'Gtfd' },
        { op: 'Replace', path: 'name.familyName', value: 'Pkqf' },
        { op: 'Replace', path: 'externalId', value: 'Eqpj' },
        {
          op: 'Replace',
          path: 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:employeeNumber',
          value: 'Eqpj',
        },
      ],
    },
    {
      displayName: 'Pvlo',
      givenName: 'Gtfd',
      familyName: 'Pkqf',
      externalId: 'Eqpj',
      ...workEmail('TestBcwqnm@test.microsoft.com'),
    },
  ],
  [
    'Entra ID replaces several attributes with aadOptscim062020 (a path-less value keyed by paths)',
    {
      schemas: [patchOpSchema],
      Operations: [
        { op: 'replace', path: 'emails[type eq "work"].value', value: 'TestMhvaes@test.microsoft.com' },
        {
          op: 'replace',
          value: {
            displayName: 'Bjfe',
            'name.givenName': 'Kkom',
            'name.familyName': 'Unua',
            'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:employeeNumber': 'Aklq',
          },
        },
      ],
    },
    { displayName: 'Bjfe', givenName: 'Kkom', familyName: 'Unua', ...workEmail('TestMhvaes@test.microsoft.com') },
  ],
  [
    'Entra ID sends Add for a changed e-mail next to a Replace of title',
    {
      schemas: [patchOpSchema],
      Operations: [
        { op: 'Replace', path: 'title', value: 'tester' },
        { op: 'Add', path: 'emails[type eq "work"].value', value: 'joe@example.com' },
      ],
    },
    workEmail('joe@example.com'),
  ],
  [
    'Entra ID sets and clears the enterprise manager',
    {
      schemas: [patchOpSchema],
      Operations: [
        { op: 'Add', path: 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:manager', value: '2819c223' },
        { op: 'Remove', path: 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:manager' },
      ],
    },
    {},
  ],
  [
    'Entra ID mixes a path-less string boolean with a name path',
    patch({ op: 'Replace', value: { 'name.givenName': 'X', active: 'False' } }),
    { givenName: 'X', active: false },
  ],
];

describe('applyUserPatch on what identity providers send', () => {
  it.each(goldenCases)('%s', (_case, body, changes) => {
    expect(applyUserPatch(ada, body)).toEqual({ ...ada, ...changes });
  });
});

describe('applyUserPatch semantics', () => {
  it.each<[string, unknown[], Partial<ScimUserAttributes>]>([
    [
      'takes a core-schema URN prefix',
      [{ op: 'replace', path: 'urn:ietf:params:scim:schemas:core:2.0:User:displayName', value: 'A' }],
      { displayName: 'A' },
    ],
    [
      'reads paths case-insensitively',
      [
        { op: 'replace', path: 'NAME.GIVENNAME', value: 'A' },
        { op: 'replace', path: 'USERTYPE', value: 'Contractor' },
      ],
      { givenName: 'A', userType: 'Contractor' },
    ],
    [
      'treats add on a single-valued attribute as replace (RFC 7644 §3.5.2.1)',
      [{ op: 'add', path: 'displayName', value: 'A' }],
      { displayName: 'A' },
    ],
    [
      'keeps sub-attributes left out of a name value',
      [{ op: 'replace', path: 'name', value: { givenName: 'Augusta', formatted: 'Augusta Lovelace' } }],
      { givenName: 'Augusta' },
    ],
    [
      'reads a path-less name object',
      [{ op: 'replace', value: { name: { familyName: 'King', middleName: 'Ada' } } }],
      { familyName: 'King' },
    ],
    [
      'clears a name part set to null',
      [{ op: 'replace', path: 'name', value: { givenName: null } }],
      { givenName: null },
    ],
    ['removes displayName', [{ op: 'remove', path: 'displayName' }], { displayName: null }],
    ['removes externalId', [{ op: 'remove', path: 'externalId' }], { externalId: null }],
    ['removes userType', [{ op: 'remove', path: 'userType' }], { userType: null }],
    ['removes name.givenName', [{ op: 'remove', path: 'name.givenName' }], { givenName: null }],
    ['removes the whole name', [{ op: 'remove', path: 'name' }], { givenName: null, familyName: null }],
    [
      'clears an optional attribute replaced with null (RFC 7643 §2.5)',
      [{ op: 'replace', path: 'displayName', value: null }],
      { displayName: null },
    ],
    [
      'ignores name parts gw does not keep',
      [
        { op: 'replace', path: 'name.formatted', value: 'Ada L.' },
        { op: 'remove', path: 'name.middleName' },
      ],
      {},
    ],
    [
      'keeps emails apart from userName',
      [
        { op: 'add', path: 'emails', value: [{ value: 'x@y.z', type: 'home' }] },
        { op: 'remove', path: 'emails[primary eq true].value' },
      ],
      { emails: [{ value: 'x@y.z', type: 'home', primary: false, display: null }] },
    ],
    ['empties emails with a path-less replace', [{ op: 'replace', value: { emails: [] } }], { emails: [] }],
    [
      'ignores attributes gw does not keep',
      [
        'title',
        'phoneNumbers[type eq "work"].value',
        'addresses[type eq "work"].streetAddress',
        'locale',
        'preferredLanguage',
        'nickName',
        'profileUrl',
        'timezone',
      ].map((path) => ({ op: 'replace', path, value: 'x' })),
      {},
    ],
    [
      'ignores read-only attributes echoed in a path-less value',
      [{ op: 'replace', value: { id: 'other', schemas: [], meta: {}, groups: [], displayName: 'A' } }],
      { displayName: 'A' },
    ],
    [
      'trims strings as POST and PUT bodies do',
      [
        { op: 'replace', path: 'userName', value: ' ada@example.org ' },
        { op: 'replace', path: 'displayName', value: ' Ada ' },
      ],
      { userName: 'ada@example.org', displayName: 'Ada' },
    ],
    [
      'applies operations in order',
      [
        { op: 'replace', path: 'displayName', value: 'A' },
        { op: 'remove', path: 'displayName' },
        { op: 'add', path: 'displayName', value: 'B' },
      ],
      { displayName: 'B' },
    ],
    [
      'accepts userName at the length limit',
      [{ op: 'replace', path: 'userName', value: `${'a'.repeat(maxUserNameLength - 8)}@b.co.uk` }],
      { userName: `${'a'.repeat(maxUserNameLength - 8)}@b.co.uk` },
    ],
    [
      'accepts an optional attribute at the length limit',
      [{ op: 'replace', path: 'displayName', value: 'd'.repeat(maxAttributeLength) }],
      { displayName: 'd'.repeat(maxAttributeLength) },
    ],
  ])('%s', (_case, operations, changes) => {
    expect(applyUserPatch(ada, patch(...operations))).toEqual({ ...ada, ...changes });
  });

  it('returns a new object and never mutates the current attributes', () => {
    const current = { ...ada };
    const next = applyUserPatch(current, patch({ op: 'replace', value: { active: false, displayName: 'B' } }));
    expect(next).not.toBe(current);
    expect(current).toEqual(ada);
    expect(applyUserPatch(ada, patch({ op: 'add', path: 'title', value: 'x' }))).not.toBe(ada);
  });
});

describe('applyUserPatch errors', () => {
  it.each<[string, unknown, number, ScimErrorType]>([
    ['removing userName', patch({ op: 'remove', path: 'userName' }), 400, 'mutability'],
    ['removing active', patch({ op: 'remove', path: 'active' }), 400, 'mutability'],
    ['replacing userName with null', patch({ op: 'replace', path: 'userName', value: null }), 400, 'mutability'],
    ['a path-less null active', patch({ op: 'replace', value: { active: null } }), 400, 'mutability'],
    ['an empty userName', patch({ op: 'replace', path: 'userName', value: '' }), 400, 'invalidValue'],
    ['a blank userName', patch({ op: 'replace', path: 'userName', value: '   ' }), 400, 'invalidValue'],
    ['a non-string userName', patch({ op: 'replace', path: 'userName', value: 42 }), 400, 'invalidValue'],
    [
      'an overlong userName',
      patch({ op: 'replace', path: 'userName', value: `${'a'.repeat(maxUserNameLength)}@b.c` }),
      400,
      'invalidValue',
    ],
    ['active "yes"', patch({ op: 'replace', path: 'active', value: 'yes' }), 400, 'invalidValue'],
    ['active 0', patch({ op: 'replace', value: { active: 0 } }), 400, 'invalidValue'],
    [
      'an overlong displayName',
      patch({ op: 'replace', path: 'displayName', value: 'd'.repeat(maxAttributeLength + 1) }),
      400,
      'invalidValue',
    ],
    ['a numeric externalId', patch({ op: 'replace', path: 'externalId', value: 7 }), 400, 'invalidValue'],
    [
      'an object givenName',
      patch({ op: 'replace', path: 'name.givenName', value: { value: 'A' } }),
      400,
      'invalidValue',
    ],
    ['a name that is a string', patch({ op: 'replace', path: 'name', value: 'Ada Lovelace' }), 400, 'invalidValue'],
    [
      'a filter on a single-valued attribute',
      patch({ op: 'replace', path: 'userName[value eq "a"]', value: 'b' }),
      400,
      'invalidPath',
    ],
    [
      'a filter on name',
      patch({ op: 'replace', path: 'name[givenName eq "A"].familyName', value: 'b' }),
      400,
      'invalidPath',
    ],
    [
      'a sub-attribute of a simple attribute',
      patch({ op: 'replace', path: 'displayName.first', value: 'b' }),
      400,
      'invalidPath',
    ],
    ['an unknown name part', patch({ op: 'replace', path: 'name.nickname', value: 'b' }), 400, 'invalidPath'],
    ['an unknown attribute', patch({ op: 'replace', path: 'favouriteColour', value: 'b' }), 400, 'invalidPath'],
    ['an unknown path-less attribute', patch({ op: 'replace', value: { favouriteColour: 'b' } }), 400, 'invalidPath'],
    [
      'an Object.prototype member as a path',
      patch({ op: 'replace', path: 'constructor', value: 'b' }),
      400,
      'invalidPath',
    ],
    [
      'an Object.prototype member as a name part',
      patch({ op: 'replace', path: 'name.toString', value: 'b' }),
      400,
      'invalidPath',
    ],
    [
      'an Object.prototype member as a path-less key',
      patch({ op: 'replace', value: { hasOwnProperty: 'b' } }),
      400,
      'invalidPath',
    ],
    ['a malformed path', patch({ op: 'replace', path: 'name..givenName', value: 'b' }), 400, 'invalidPath'],
    ['id by path', patch({ op: 'replace', path: 'id', value: 'b' }), 400, 'mutability'],
    ['groups by path', patch({ op: 'add', path: 'groups', value: [{ value: 'g1' }] }), 400, 'mutability'],
    ['a remove without a path', patch({ op: 'remove' }), 400, 'noTarget'],
    ['a malformed body', { schemas: [patchOpSchema], Operations: [] }, 400, 'invalidSyntax'],
    ['a body that is not a PatchOp', { userName: 'ada@example.com' }, 400, 'invalidSyntax'],
  ])('rejects %s', (_case, body, status, scimType) => {
    expect(thrownBy(() => applyUserPatch(ada, body))).toMatchObject({ status, scimType });
  });

  it('applies nothing when a later operation fails (RFC 7644 §3.5.2)', () => {
    const current = { ...ada };
    expect(() =>
      applyUserPatch(
        current,
        patch({ op: 'replace', path: 'active', value: false }, { op: 'remove', path: 'userName' }),
      ),
    ).toThrow(ScimError);
    expect(current).toEqual(ada);
  });

  it('says what was wrong', () => {
    expect(thrownBy(() => applyUserPatch(ada, patch({ op: 'remove', path: 'userName' }))).message).toBe(
      'userName is required and cannot be removed; replace it instead.',
    );
    expect(thrownBy(() => applyUserPatch(ada, patch({ op: 'replace', path: 'active', value: 'yes' }))).message).toBe(
      'active must be true or false.',
    );
  });
});
