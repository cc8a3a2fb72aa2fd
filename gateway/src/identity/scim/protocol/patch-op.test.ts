import { describe, expect, it } from 'vitest';
import { maxPatchOperations, parseAttributePath, parsePatchTargets, patchOpSchema } from './patch-op.js';
import { patch, thrownBy } from '../../../../test/scim-patch-support.js';

const userSchema = 'urn:ietf:params:scim:schemas:core:2.0:User';

describe('parsePatchTargets', () => {
  it('flattens a path-less value into one target per attribute, keeping the order', () => {
    const targets = parsePatchTargets(
      patch(
        { op: 'Replace', path: 'displayName', value: 'A' },
        { op: 'replace', value: { 'name.givenName': 'B', active: false } },
      ),
      userSchema,
    );
    expect(
      targets.map((target) => [
        target.op,
        target.path.attribute,
        target.path.subAttribute,
        target.value,
        target.pathless,
      ]),
    ).toEqual([
      ['replace', 'displayname', null, 'A', false],
      ['replace', 'name', 'givenname', 'B', true],
      ['replace', 'active', null, false, true],
    ]);
  });

  it('reads member names case-insensitively (RFC 7643 §2.1)', () => {
    const targets = parsePatchTargets(
      { Schemas: [patchOpSchema.toUpperCase()], operations: [{ OP: 'REMOVE', Path: 'title' }] },
      userSchema,
    );
    expect(targets).toEqual([
      { op: 'remove', path: expect.objectContaining({ attribute: 'title' }), value: undefined, pathless: false },
    ]);
  });

  it('treats a null path as no path', () => {
    expect(
      parsePatchTargets(patch({ op: 'replace', path: null, value: { active: true } }), userSchema)[0]?.path.attribute,
    ).toBe('active');
  });

  it(`accepts exactly ${maxPatchOperations} operations`, () => {
    const operations = Array.from({ length: maxPatchOperations }, () => ({ op: 'replace', path: 'title', value: 'x' }));
    expect(parsePatchTargets(patch(...operations), userSchema)).toHaveLength(maxPatchOperations);
  });

  it.each([
    ['a non-object body', 'replace', 'the body must be a PatchOp object'],
    ['a null body', null, 'the body must be a PatchOp object'],
    ['missing schemas', { Operations: [{ op: 'add', path: 'title', value: 'x' }] }, 'schemas must be an array'],
    [
      'schemas without the PatchOp URN',
      {
        schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
        Operations: [{ op: 'add', path: 'title', value: 'x' }],
      },
      `schemas must hold "${patchOpSchema}"`,
    ],
    ['missing Operations', { schemas: [patchOpSchema] }, 'Operations must be an array'],
    ['Operations as an object', { schemas: [patchOpSchema], Operations: { op: 'add' } }, 'Operations must be an array'],
    ['empty Operations', patch(), 'Operations must hold at least one operation'],
    [
      'too many Operations',
      patch(...Array.from({ length: maxPatchOperations + 1 }, () => ({ op: 'add', path: 'title', value: 'x' }))),
      `at most ${maxPatchOperations}`,
    ],
    ['an operation that is not an object', patch('add'), 'Operations[0]: each operation must be an object'],
    [
      'an unknown op',
      patch({ op: 'move', path: 'title', value: 'x' }),
      'Operations[0].op: op must be add, remove or replace',
    ],
    ['a JSON Patch op', patch({ op: 'copy', from: 'title', path: 'nickName' }), 'op must be add, remove or replace'],
    ['a missing op', patch({ path: 'title', value: 'x' }), 'Operations[0].op: op must be a string'],
    ['a non-string path', patch({ op: 'add', path: 7, value: 'x' }), 'Operations[0].path: path must be a string'],
    [
      'an overlong path',
      patch({ op: 'add', path: 'a'.repeat(1001), value: 'x' }),
      'path is longer than 1000 characters',
    ],
    ['an add without a value', patch({ op: 'add', path: 'title' }), 'Operations[0] (add) has no value'],
    ['a replace without a value', patch({ op: 'replace', path: 'title' }), 'Operations[0] (replace) has no value'],
  ])('rejects %s with 400 invalidSyntax', (_case, body, detail) => {
    const error = thrownBy(() => parsePatchTargets(body, userSchema));
    expect(error).toMatchObject({ status: 400, scimType: 'invalidSyntax' });
    expect(error.message).toContain(detail);
  });

  it('rejects a remove without a path with 400 noTarget (RFC 7644 §3.5.2.2)', () => {
    expect(thrownBy(() => parsePatchTargets(patch({ op: 'remove' }), userSchema))).toMatchObject({
      status: 400,
      scimType: 'noTarget',
    });
  });

  it.each([
    ['a string', 'x'],
    ['an array', [{ active: false }]],
    ['null', null],
  ])('rejects a path-less value that is %s with 400 invalidValue', (_case, value) => {
    expect(thrownBy(() => parsePatchTargets(patch({ op: 'replace', value }), userSchema))).toMatchObject({
      status: 400,
      scimType: 'invalidValue',
    });
  });
});

describe('parseAttributePath', () => {
  it.each([
    ['userName', 'username', null, null, false],
    ['name.givenName', 'name', null, 'givenname', false],
    ['emails[type eq "work"].value', 'emails', 'type eq "work"', 'value', false],
    ['members[value eq "2819c223"]', 'members', 'value eq "2819c223"', null, false],
    ['urn:ietf:params:scim:schemas:core:2.0:User:name.familyName', 'name', null, 'familyname', false],
    ['URN:IETF:PARAMS:SCIM:SCHEMAS:CORE:2.0:USER:active', 'active', null, null, false],
    [
      'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:manager',
      'urn:ietf:params:scim:schemas:extension:enterprise:2.0:user:manager',
      null,
      null,
      true,
    ],
    [
      'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User',
      'urn:ietf:params:scim:schemas:extension:enterprise:2.0:user',
      null,
      null,
      true,
    ],
  ])('%s', (text, attribute, filter, subAttribute, extension) => {
    expect(parseAttributePath(text, userSchema)).toEqual({ text, attribute, filter, subAttribute, extension });
  });

  it.each([
    [''],
    ['name..givenName'],
    ['1userName'],
    ['name.givenName.first'],
    ['user name'],
    ['emails[type eq "work"'],
    [userSchema],
  ])('rejects %j with 400 invalidPath', (text) => {
    expect(thrownBy(() => parseAttributePath(text, userSchema))).toMatchObject({
      status: 400,
      scimType: 'invalidPath',
    });
  });
});
