import { describe, expect, it } from 'vitest';
import {
  applyGroupPatch,
  maxGroupAttributeLength,
  maxGroupMembers,
  maxMemberIdLength,
  type ScimGroupAttributes,
} from './group-patch.js';
import { patchOpSchema } from './patch-op.js';
import { ScimError, type ScimErrorType } from './scim-error.js';
import { patch, thrownBy } from '../../../../test/scim-patch-support.js';

const engineers: ScimGroupAttributes = Object.freeze({
  displayName: 'Test SCIMv2',
  externalId: '8aa1a0c0-c4c3-4bc0-b4a5-2ef676900159',
  memberIds: Object.freeze(['89bb1940-b905-4575-9e7f-6f887cfb368e', 'f648f8d5ea4e4cd38e9c']) as string[],
});

// Request bodies as Okta (developer.okta.com, "Okta and SCIM Version 2.0") and Microsoft Entra ID (learn.microsoft.com,
// "Develop a SCIM endpoint" and "Known issues … SCIM 2.0 protocol compliance") document sending them.
const goldenCases: ReadonlyArray<[string, unknown, Partial<ScimGroupAttributes>]> = [
  [
    'Okta renames a group with a path-less value echoing its id',
    {
      schemas: [patchOpSchema],
      Operations: [
        { op: 'replace', value: { id: 'abf4dd94-a4c0-4f67-89c9-76b03340cb9b', displayName: 'Test SCIMv20' } },
      ],
    },
    { displayName: 'Test SCIMv20' },
  ],
  [
    'Okta removes one member by filter and adds another',
    {
      schemas: [patchOpSchema],
      Operations: [
        { op: 'remove', path: 'members[value eq "89bb1940-b905-4575-9e7f-6f887cfb368e"]' },
        {
          op: 'add',
          path: 'members',
          value: [{ value: '23a35c27-23d3-4c03-b4c5-6443c09e7173', display: 'test.user@okta.local' }],
        },
      ],
    },
    { memberIds: ['f648f8d5ea4e4cd38e9c', '23a35c27-23d3-4c03-b4c5-6443c09e7173'] },
  ],
  [
    'Okta pushes the full membership with replace',
    {
      schemas: [patchOpSchema],
      Operations: [
        {
          op: 'replace',
          path: 'members',
          value: [
            { value: '23a35c27-23d3-4c03-b4c5-6443c09e7173', display: 'test.user@okta.local' },
            { value: '89bb1940-b905-4575-9e7f-6f887cfb368e', display: 'test.user@okta.local' },
          ],
        },
      ],
    },
    { memberIds: ['23a35c27-23d3-4c03-b4c5-6443c09e7173', '89bb1940-b905-4575-9e7f-6f887cfb368e'] },
  ],
  [
    'a path-less replace of members (as some Okta integrations send it)',
    {
      schemas: [patchOpSchema],
      Operations: [{ op: 'replace', value: { members: [{ value: 'cb300cb6-9702-45a9-a909-f8b7c972ab7e' }] } }],
    },
    { memberIds: ['cb300cb6-9702-45a9-a909-f8b7c972ab7e'] },
  ],
  [
    'Entra ID renames a group',
    {
      schemas: [patchOpSchema],
      Operations: [
        { op: 'Replace', path: 'displayName', value: '1879db59-3bdf-4490-ad68-ab880a269474updatedDisplayName' },
      ],
    },
    { displayName: '1879db59-3bdf-4490-ad68-ab880a269474updatedDisplayName' },
  ],
  [
    'Entra ID adds a member',
    {
      schemas: [patchOpSchema],
      Operations: [{ op: 'Add', path: 'members', value: [{ $ref: null, value: 'a2a4f0c5d5e94a96a8cd' }] }],
    },
    { memberIds: ['89bb1940-b905-4575-9e7f-6f887cfb368e', 'f648f8d5ea4e4cd38e9c', 'a2a4f0c5d5e94a96a8cd'] },
  ],
  [
    'Entra ID removes a member with a value array',
    {
      schemas: [patchOpSchema],
      Operations: [{ op: 'Remove', path: 'members', value: [{ $ref: null, value: 'f648f8d5ea4e4cd38e9c' }] }],
    },
    { memberIds: ['89bb1940-b905-4575-9e7f-6f887cfb368e'] },
  ],
  [
    'Entra ID removes a member by filter with aadOptscim062020',
    {
      schemas: [patchOpSchema],
      Operations: [{ op: 'remove', path: 'members[value eq "89bb1940-b905-4575-9e7f-6f887cfb368e"]' }],
    },
    { memberIds: ['f648f8d5ea4e4cd38e9c'] },
  ],
];

describe('applyGroupPatch on what identity providers send', () => {
  it.each(goldenCases)('%s', (_case, body, changes) => {
    expect(applyGroupPatch(engineers, body)).toEqual({ ...engineers, ...changes });
  });
});

describe('applyGroupPatch semantics', () => {
  const [first, second] = engineers.memberIds as [string, string];
  it.each<[string, unknown[], Partial<ScimGroupAttributes>]>([
    ['adding a present member changes nothing', [{ op: 'add', path: 'members', value: [{ value: first }] }], {}],
    [
      'removing an absent member changes nothing',
      [
        { op: 'remove', path: 'members[value eq "nobody"]' },
        { op: 'remove', path: 'members', value: [{ value: 'nobody' }] },
      ],
      {},
    ],
    [
      'adds each member once, in order',
      [{ op: 'add', path: 'members', value: [{ value: 'c' }, { value: 'b' }, { value: 'c' }, { value: first }] }],
      { memberIds: [first, second, 'c', 'b'] },
    ],
    [
      'replaces with a unique list',
      [{ op: 'replace', path: 'members', value: [{ value: 'b' }, { value: 'b' }] }],
      { memberIds: ['b'] },
    ],
    [
      'takes a lone member object as one member',
      [{ op: 'add', path: 'members', value: { value: 'c' } }],
      { memberIds: [first, second, 'c'] },
    ],
    [
      'removes every member when remove has no value (RFC 7644 §3.5.2.2)',
      [{ op: 'remove', path: 'members' }],
      { memberIds: [] },
    ],
    [
      'empties the list on replace with an empty array',
      [{ op: 'replace', path: 'members', value: [] }],
      { memberIds: [] },
    ],
    ['empties the list on replace with null', [{ op: 'replace', path: 'members', value: null }], { memberIds: [] }],
    [
      'removes the members an or of value filters names',
      [{ op: 'remove', path: `members[value eq "${first}" or value eq "${second}"]` }],
      { memberIds: [] },
    ],
    [
      'reads the members filter case-insensitively',
      [{ op: 'REMOVE', path: `Members[Value EQ "${first}"]` }],
      { memberIds: [second] },
    ],
    [
      'takes a core-schema URN prefix',
      [{ op: 'replace', path: 'urn:ietf:params:scim:schemas:core:2.0:Group:displayName', value: 'Ops' }],
      { displayName: 'Ops' },
    ],
    [
      'trims strings as POST and PUT bodies do',
      [
        { op: 'add', path: 'members', value: [{ value: ' c ' }] },
        { op: 'replace', path: 'displayName', value: ' Ops ' },
      ],
      { memberIds: [first, second, 'c'], displayName: 'Ops' },
    ],
    ['replaces externalId', [{ op: 'replace', path: 'externalId', value: 'x-1' }], { externalId: 'x-1' }],
    ['removes externalId', [{ op: 'remove', path: 'externalId' }], { externalId: null }],
    [
      'reads a path-less externalId and displayName',
      [{ op: 'add', value: { externalId: 'x-2', displayName: 'Ops', schemas: [], meta: {} } }],
      { externalId: 'x-2', displayName: 'Ops' },
    ],
    [
      'ignores extension attributes',
      [{ op: 'add', path: 'urn:example:params:scim:schemas:extension:acme:2.0:Group:costCentre', value: '42' }],
      {},
    ],
    [
      'accepts displayName at the length limit',
      [{ op: 'replace', path: 'displayName', value: 'g'.repeat(maxGroupAttributeLength) }],
      { displayName: 'g'.repeat(maxGroupAttributeLength) },
    ],
  ])('%s', (_case, operations, changes) => {
    expect(applyGroupPatch(engineers, patch(...operations))).toEqual({ ...engineers, ...changes });
  });

  it(`allows exactly ${maxGroupMembers} members`, () => {
    const value = Array.from({ length: maxGroupMembers }, (_unused, index) => ({ value: `user-${index}` }));
    expect(applyGroupPatch(engineers, patch({ op: 'replace', path: 'members', value })).memberIds).toHaveLength(
      maxGroupMembers,
    );
  });

  it('returns new objects and never mutates the current attributes', () => {
    const current = { ...engineers, memberIds: [...engineers.memberIds] };
    const next = applyGroupPatch(
      current,
      patch(
        { op: 'add', path: 'members', value: [{ value: 'c' }] },
        { op: 'replace', path: 'displayName', value: 'Ops' },
      ),
    );
    expect(next).not.toBe(current);
    expect(next.memberIds).not.toBe(current.memberIds);
    expect(current).toEqual(engineers);
    expect(applyGroupPatch(engineers, patch({ op: 'add', path: 'members', value: [] })).memberIds).not.toBe(
      engineers.memberIds,
    );
  });
});

describe('applyGroupPatch errors', () => {
  it.each<[string, unknown, number, ScimErrorType]>([
    ['removing displayName', patch({ op: 'remove', path: 'displayName' }), 400, 'mutability'],
    ['replacing displayName with null', patch({ op: 'replace', path: 'displayName', value: null }), 400, 'mutability'],
    ['an empty displayName', patch({ op: 'replace', path: 'displayName', value: '' }), 400, 'invalidValue'],
    ['a non-string displayName', patch({ op: 'replace', value: { displayName: 7 } }), 400, 'invalidValue'],
    [
      'an overlong displayName',
      patch({ op: 'replace', path: 'displayName', value: 'g'.repeat(maxGroupAttributeLength + 1) }),
      400,
      'invalidValue',
    ],
    [
      'an overlong externalId',
      patch({ op: 'replace', path: 'externalId', value: 'x'.repeat(maxGroupAttributeLength + 1) }),
      400,
      'invalidValue',
    ],
    ['a blank displayName', patch({ op: 'replace', path: 'displayName', value: '  ' }), 400, 'invalidValue'],
    [
      'a member with an empty value',
      patch({ op: 'add', path: 'members', value: [{ value: '' }] }),
      400,
      'invalidValue',
    ],
    [
      'a member without a value',
      patch({ op: 'add', path: 'members', value: [{ display: 'Ada' }] }),
      400,
      'invalidValue',
    ],
    [
      'a member with a numeric value',
      patch({ op: 'add', path: 'members', value: [{ value: 42 }] }),
      400,
      'invalidValue',
    ],
    [
      'a member that is a bare id',
      patch({ op: 'add', path: 'members', value: ['f648f8d5ea4e4cd38e9c'] }),
      400,
      'invalidValue',
    ],
    [
      'members that are a string',
      patch({ op: 'replace', path: 'members', value: 'f648f8d5ea4e4cd38e9c' }),
      400,
      'invalidValue',
    ],
    [
      'an overlong member value',
      patch({ op: 'add', path: 'members', value: [{ value: 'u'.repeat(maxMemberIdLength + 1) }] }),
      400,
      'invalidValue',
    ],
    ['an empty member id in a filter', patch({ op: 'remove', path: 'members[value eq ""]' }), 400, 'invalidValue'],
    [
      `more than ${maxGroupMembers} members`,
      patch({
        op: 'add',
        path: 'members',
        value: Array.from({ length: maxGroupMembers - 1 }, (_unused, index) => ({ value: `user-${index}` })),
      }),
      400,
      'invalidValue',
    ],
    [
      'a members filter with another operator',
      patch({ op: 'remove', path: 'members[value co "89bb"]' }),
      400,
      'invalidFilter',
    ],
    ['a members filter on display', patch({ op: 'remove', path: 'members[display eq "Ada"]' }), 400, 'invalidFilter'],
    [
      'a members filter with and',
      patch({ op: 'remove', path: 'members[value eq "a" and value eq "b"]' }),
      400,
      'invalidFilter',
    ],
    ['a members filter that is not one', patch({ op: 'remove', path: 'members[value eq]' }), 400, 'invalidFilter'],
    [
      'a members filter on add',
      patch({ op: 'add', path: 'members[value eq "a"]', value: [{ value: 'a' }] }),
      400,
      'invalidPath',
    ],
    ['a members sub-attribute', patch({ op: 'remove', path: 'members.value' }), 400, 'invalidPath'],
    [
      'a filter on displayName',
      patch({ op: 'replace', path: 'displayName[value eq "a"]', value: 'b' }),
      400,
      'invalidPath',
    ],
    ['an unknown attribute', patch({ op: 'replace', path: 'description', value: 'b' }), 400, 'invalidPath'],
    ['an unknown path-less attribute', patch({ op: 'replace', value: { description: 'b' } }), 400, 'invalidPath'],
    ['id by path', patch({ op: 'replace', path: 'id', value: 'b' }), 400, 'mutability'],
    ['a remove without a path', patch({ op: 'remove' }), 400, 'noTarget'],
    [
      'a malformed body',
      { schemas: [patchOpSchema], Operations: [{ op: 'merge', path: 'members' }] },
      400,
      'invalidSyntax',
    ],
    [
      'a body without the PatchOp schema',
      { Operations: [{ op: 'add', path: 'members', value: [] }] },
      400,
      'invalidSyntax',
    ],
  ])('rejects %s', (_case, body, status, scimType) => {
    expect(thrownBy(() => applyGroupPatch(engineers, body))).toMatchObject({ status, scimType });
  });

  it('applies nothing when a later operation fails (RFC 7644 §3.5.2)', () => {
    const current = { ...engineers, memberIds: [...engineers.memberIds] };
    expect(() =>
      applyGroupPatch(current, patch({ op: 'remove', path: 'members' }, { op: 'remove', path: 'displayName' })),
    ).toThrow(ScimError);
    expect(current).toEqual(engineers);
  });
});
