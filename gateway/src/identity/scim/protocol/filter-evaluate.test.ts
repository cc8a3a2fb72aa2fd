import { describe, expect, it } from 'vitest';
import { groupResourceSchema, userResourceSchema } from './attribute-schema.js';
import { compileFilter, type ScimResource } from './filter-evaluate.js';
import { parseScimFilter } from './filter.js';
import { thrownBy } from '../../../../test/scim-patch-support.js';

const user = (userName: string, extra: Record<string, unknown>): ScimResource => ({
  schemas: ['urn:ietf:params:scim:schemas:core:2.0:User', 'urn:gw:params:scim:schemas:extension:gateway:2.0:User'],
  id: `id-${userName}`,
  userName,
  active: true,
  meta: {
    resourceType: 'User',
    created: '2011-05-13T04:42:34.000Z',
    lastModified: '2011-05-13T04:42:34.000Z',
    version: 'W/"1"',
  },
  'urn:gw:params:scim:schemas:extension:gateway:2.0:User': { team: null, admin: false },
  ...extra,
});

const users = [
  user('bjensen', {
    name: { familyName: "O'Malley", givenName: 'Barbara' },
    userType: 'Employee',
    title: 'Tour Guide',
    emails: [
      { value: 'bjensen@example.com', type: 'work', primary: true },
      { value: 'babs@home.example.org', type: 'home' },
    ],
  }),
  user('jsmith', {
    userType: 'Intern',
    emails: [{ value: 'jsmith@example.org', type: 'work' }],
    meta: { created: '2011-05-13T04:42:34Z', lastModified: '2011-05-13T04:42:35Z' },
  }),
  user('Jane', {
    userType: 'Employee',
    active: false,
    emails: [
      { value: 'jane@other.test', type: 'home' },
      { value: 'jane@example.com', type: 'other' },
    ],
    meta: { lastModified: '2011-05-13T04:42:33.999Z' },
  }),
  user('kim', { 'urn:gw:params:scim:schemas:extension:gateway:2.0:User': { team: 'platform', admin: true } }),
];

const matching = (filter: string, resources: readonly ScimResource[] = users) =>
  resources.filter(compileFilter(parseScimFilter(filter), userResourceSchema)).map((resource) => resource.userName);

describe('compileFilter: the RFC examples against four users', () => {
  it.each([
    ['userName eq "bjensen"', ['bjensen']],
    ['name.familyName co "O\'Malley"', ['bjensen']],
    ['userName sw "J"', ['jsmith', 'Jane']],
    ['urn:ietf:params:scim:schemas:core:2.0:User:userName sw "J"', ['jsmith', 'Jane']],
    ['title pr', ['bjensen']],
    ['meta.lastModified gt "2011-05-13T04:42:34Z"', ['jsmith']],
    ['meta.lastModified ge "2011-05-13T04:42:34Z"', ['bjensen', 'jsmith', 'kim']],
    ['meta.lastModified lt "2011-05-13T04:42:34Z"', ['Jane']],
    ['meta.lastModified le "2011-05-13T04:42:34Z"', ['bjensen', 'Jane', 'kim']],
    ['title pr and userType eq "Employee"', ['bjensen']],
    ['title pr or userType eq "Intern"', ['bjensen', 'jsmith']],
    ['schemas eq "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User"', []],
    ['userType eq "Employee" and (emails co "example.com" or emails.value co "example.org")', ['bjensen', 'Jane']],
    ['userType ne "Employee" and not (emails co "example.com" or emails.value co "example.org")', ['kim']],
    ['userType eq "Employee" and (emails.type eq "work")', ['bjensen']],
    ['userType eq "Employee" and emails[type eq "work" and value co "@example.com"]', ['bjensen']],
    ['emails[type eq "work" and value co "@example.com"] or ims[type eq "xmpp" and value co "@foo.com"]', ['bjensen']],
  ])('%s', (filter, expected) => {
    expect(matching(filter)).toEqual(expected);
  });
});

describe('compileFilter: comparison rules', () => {
  it.each([
    // userName is not case-exact; id and externalId are.
    ['USERNAME EQ "BJENSEN"', ['bjensen']],
    ['id eq "ID-bjensen"', []],
    ['id eq "id-bjensen"', ['bjensen']],
    ['userName ew "SMITH"', ['jsmith']],
    ['userName gt "jsmith"', ['kim']],
    ['active eq false', ['Jane']],
    ['active ne false', ['bjensen', 'jsmith', 'kim']],
    ['not (active eq true)', ['Jane']],
    ['userType eq null', ['kim']],
    ['userType ne null', ['bjensen', 'jsmith', 'Jane']],
    ['emails pr', ['bjensen', 'jsmith', 'Jane']],
    ['emails[type eq "work"].value eq "BJENSEN@example.com"', ['bjensen']],
    // The value filter binds one value: Jane's home address is not her example.com one.
    ['emails[type eq "home" and value ew "example.com"]', []],
    ['emails.type eq "home" and emails.value ew "example.com"', ['bjensen', 'Jane']],
    ['emails[primary eq true]', ['bjensen']],
    ['urn:gw:params:scim:schemas:extension:gateway:2.0:User:team eq "Platform"', ['kim']],
    ['urn:gw:params:scim:schemas:extension:gateway:2.0:User:admin eq true', ['kim']],
    // Chronological: the same instant written with and without milliseconds; Jane's record has no created.
    ['meta.created eq "2011-05-13T04:42:34Z"', ['bjensen', 'jsmith', 'kim']],
    ['urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:department pr', []],
  ])('%s', (filter, expected) => {
    expect(matching(filter)).toEqual(expected);
  });

  it('matches group members by value and name', () => {
    const group = {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'],
      id: 'g1',
      displayName: 'Engineering',
      members: [{ value: 'u1', display: 'ada@example.com' }],
    };
    const matches = (filter: string) => compileFilter(parseScimFilter(filter), groupResourceSchema)(group);
    expect(matches('members[value eq "u1"]')).toBe(true);
    expect(matches('members eq "U1"')).toBe(false);
    expect(matches('members.display co "ADA@"')).toBe(true);
    expect(matches('displayName sw "eng" and not (members pr)')).toBe(false);
  });
});

describe('compileFilter refuses filters the schema cannot answer with 400 invalidFilter', () => {
  it.each([
    ['an attribute in no schema', 'favouriteColour eq "blue"'],
    ['an object property name', 'constructor eq "x"'],
    ['__proto__', '__proto__ eq "x"'],
    ['a sub-attribute the attribute lacks', 'name.nickName eq "x"'],
    ['a sub-attribute of a simple attribute', 'userName.value eq "x"'],
    ['a schema the resource does not have', 'urn:ietf:params:scim:schemas:core:2.0:Group:displayName eq "x"'],
    ['a complex attribute compared whole', 'name eq "x"'],
    ['a value filter on a simple attribute', 'userName[value eq "x"]'],
    ['a value filter naming a path outside the value', 'emails[userName eq "x"]'],
    ['a boolean ordered', 'active gt "x"'],
    ['a boolean compared with a string', 'active eq "True"'],
  ])('%s', (_case, filter) => {
    const error = thrownBy(() => compileFilter(parseScimFilter(filter), userResourceSchema));
    expect(error.status).toBe(400);
    expect(error.scimType).toBe('invalidFilter');
  });
});
