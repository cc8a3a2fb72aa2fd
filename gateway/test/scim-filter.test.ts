import { describe, expect, it } from 'vitest';
import { gatewayPerTest, testStores } from './helpers.js';
import { configureScim, errorSchema, groupSchema, oktaUser, scim } from './scim-support.js';

const listSchema = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';
const gatewayExtension = 'urn:gw:params:scim:schemas:extension:gateway:2.0:User';

describe.each(testStores)('SCIM list filters on %s', (_name, open) => {
  const gateway = gatewayPerTest({ open });

  const list = async (resource: 'Users' | 'Groups', filter: string, extra = '') => {
    const response = await scim(gateway.app, 'GET', `/${resource}?filter=${encodeURIComponent(filter)}${extra}`);
    expect(response.statusCode, `${filter}: ${response.body}`).toBe(200);
    return response.json<{
      totalResults: number;
      startIndex: number;
      itemsPerPage: number;
      Resources: Array<Record<string, unknown>>;
    }>();
  };
  const userNames = async (filter: string, extra = '') =>
    (await list('Users', filter, extra)).Resources.map((user) => user.userName);

  /** Five users a minute apart, with the attributes the RFC's examples filter on. */
  const provision = async () => {
    const people: Array<[string, Record<string, unknown>]> = [
      [
        'bjensen@example.com',
        {
          userType: 'Employee',
          name: { givenName: 'Barbara', familyName: "O'Malley" },
          emails: [
            { value: 'bjensen@example.com', type: 'work', primary: true },
            { value: 'babs@home.example.org', type: 'home' },
          ],
        },
      ],
      ['jsmith@example.org', { userType: 'Intern', emails: [{ value: 'jsmith@example.org', type: 'work' }] }],
      [
        'jane@other.test',
        { userType: 'Employee', active: false, emails: [{ value: 'jane@other.test', type: 'home' }] },
      ],
      ['kim@example.com', { userType: 'Contractor', externalId: 'EXT-KIM' }],
      ['lee@example.com', { userType: 'Employee', displayName: 'Lee (lead)', emails: [] }],
    ];
    const ids: Record<string, string> = {};
    for (const [userName, extra] of people) {
      const created = await scim(gateway.app, 'POST', '/Users', {
        ...oktaUser(userName),
        emails: undefined,
        externalId: undefined,
        ...extra,
      });
      expect(created.statusCode, created.body).toBe(201);
      ids[userName] = created.json().id;
      gateway.clock.advance(60_000);
    }
    return ids;
  };

  it('answers the RFC example filters, evaluated over every user, with exact totals', async () => {
    await configureScim(gateway.app);
    await provision();
    expect(await userNames('name.familyName co "O\'Malley"')).toEqual(['bjensen@example.com']);
    expect(await userNames('userName sw "J"')).toEqual(['jsmith@example.org', 'jane@other.test']);
    expect(await userNames('urn:ietf:params:scim:schemas:core:2.0:User:userName sw "J"')).toEqual([
      'jsmith@example.org',
      'jane@other.test',
    ]);
    expect(await userNames('title pr')).toEqual([]);
    expect(
      await userNames('userType eq "Employee" and (emails co "example.com" or emails.value co "example.org")'),
    ).toEqual(['bjensen@example.com']);
    expect(
      await userNames('userType ne "Employee" and not (emails co "example.com" or emails.value co "example.org")'),
    ).toEqual(['kim@example.com']);
    expect(await userNames('userType eq "Employee" and emails[type eq "work" and value co "@example.com"]')).toEqual([
      'bjensen@example.com',
    ]);
    expect(
      await userNames(
        'emails[type eq "work" and value co "@example.com"] or ims[type eq "xmpp" and value co "@foo.com"]',
      ),
    ).toEqual(['bjensen@example.com']);
    expect(await userNames('active eq false or externalId eq "EXT-KIM"')).toEqual([
      'jane@other.test',
      'kim@example.com',
    ]);
    expect(await userNames('externalId eq "ext-kim"')).toEqual([]);
    expect(await userNames('displayName co "(LEAD)"')).toEqual(['lee@example.com']);
  });

  it('orders meta.lastModified chronologically', async () => {
    await configureScim(gateway.app);
    await provision();
    const { Resources } = await list('Users', 'userName eq "jane@other.test"');
    const janeModified = (Resources[0]?.meta as { lastModified: string }).lastModified;
    // The same instant without milliseconds, as the RFC writes it.
    const instant = janeModified.replace('.000Z', 'Z');
    expect(await userNames(`meta.lastModified gt "${instant}"`)).toEqual(['kim@example.com', 'lee@example.com']);
    expect(await userNames(`meta.lastModified ge "${instant}"`)).toEqual([
      'jane@other.test',
      'kim@example.com',
      'lee@example.com',
    ]);
    expect(await userNames(`meta.lastModified lt "${instant}"`)).toEqual(['bjensen@example.com', 'jsmith@example.org']);
    expect(await userNames(`meta.lastModified le "${instant}"`)).toEqual([
      'bjensen@example.com',
      'jsmith@example.org',
      'jane@other.test',
    ]);
  });

  it('pages a filtered list: totalResults counts every match, startIndex and count pick the page', async () => {
    await configureScim(gateway.app);
    await provision();
    // Evaluated in memory (co is not pushed down) and in SQL (an or of eq): both page the same way.
    for (const filter of ['userName co "m"', 'userType eq "Employee" or userType eq "Contractor"']) {
      const all = await userNames(filter);
      expect(all.length, filter).toBe(4);
      const page = await list('Users', filter, '&startIndex=2&count=2');
      expect(page, filter).toMatchObject({ schemas: [listSchema], totalResults: 4, startIndex: 2, itemsPerPage: 2 });
      expect(page.Resources.map((user) => user.userName)).toEqual(all.slice(1, 3));
      expect(await list('Users', filter, '&startIndex=5')).toMatchObject({
        totalResults: 4,
        itemsPerPage: 0,
        Resources: [],
      });
      expect(await list('Users', filter, '&count=0')).toMatchObject({ totalResults: 4, itemsPerPage: 0 });
    }
  });

  it('finds a user by any of its addresses, not only userName', async () => {
    await configureScim(gateway.app);
    await provision();
    expect(await userNames('emails.value eq "BABS@home.example.org"')).toEqual(['bjensen@example.com']);
    expect(await userNames('emails[type eq "home"].value eq "babs@home.example.org"')).toEqual(['bjensen@example.com']);
    expect(await userNames('emails[type eq "work"].value eq "babs@home.example.org"')).toEqual([]);
  });

  it('filters groups on name, members and metadata', async () => {
    await configureScim(gateway.app);
    const ids = await provision();
    const kim = ids['kim@example.com'];
    for (const [displayName, members] of [
      ['Engineering', [kim]],
      ['Research', []],
      ['Engineering Managers', []],
    ] as const) {
      expect(
        (
          await scim(gateway.app, 'POST', '/Groups', {
            schemas: [groupSchema],
            displayName,
            members: members.map((value) => ({ value })),
          })
        ).statusCode,
      ).toBe(201);
    }
    const names = async (filter: string) => (await list('Groups', filter)).Resources.map((group) => group.displayName);
    expect(await names('displayName eq "engineering"')).toEqual(['Engineering']);
    expect(await names('displayName sw "Eng"')).toEqual(['Engineering', 'Engineering Managers']);
    expect(await names(`members[value eq "${kim}"]`)).toEqual(['Engineering']);
    expect(await names('not (members pr)')).toEqual(['Research', 'Engineering Managers']);
    expect(await names('members.display eq "KIM@example.com" or displayName ew "search"')).toEqual([
      'Engineering',
      'Research',
    ]);
  });

  it('answers every filter it cannot read with 400 invalidFilter in the SCIM envelope', async () => {
    await configureScim(gateway.app);
    for (const [resource, filter] of [
      ['Users', 'userName eq'],
      ['Users', 'userName eq "a" and'],
      ['Users', '(userName eq "a"'],
      ['Users', 'userName lw "a"'],
      ['Users', 'userName eq "a\\q"'],
      ['Users', 'favouriteColour eq "blue"'],
      ['Users', 'name eq "x"'],
      ['Users', 'active gt true'],
      ['Users', 'urn:ietf:params:scim:schemas:core:2.0:Group:displayName eq "x"'],
      ['Groups', 'userName eq "a"'],
      ['Groups', 'members[display[value eq "x"]]'],
    ] as const) {
      const response = await scim(gateway.app, 'GET', `/${resource}?filter=${encodeURIComponent(filter)}`);
      expect(response.statusCode, filter).toBe(400);
      expect(response.headers['content-type']).toContain('application/scim+json');
      expect(response.json()).toEqual({
        schemas: [errorSchema],
        status: '400',
        scimType: 'invalidFilter',
        detail: expect.any(String),
      });
    }
    const twice = await scim(gateway.app, 'GET', `/Users?filter=${encodeURIComponent('userName eq "a"')}&filter=x`);
    expect(twice.json()).toMatchObject({ status: '400', scimType: 'invalidFilter' });
  });
});

describe('SCIM attribute projection', () => {
  const gateway = gatewayPerTest();

  it('returns only the attributes asked for, with id and schemas always, on list, read and write', async () => {
    await configureScim(gateway.app);
    const created = await scim(gateway.app, 'POST', '/Users?attributes=userName', oktaUser('ada@example.com'));
    expect(created.statusCode).toBe(201);
    const { id } = created.json();
    expect(created.json()).toEqual({
      schemas: [expect.any(String), gatewayExtension],
      id,
      userName: 'ada@example.com',
    });

    const read = await scim(
      gateway.app,
      'GET',
      `/Users/${id}?attributes=${encodeURIComponent('emails.value,name.givenName,URN:IETF:PARAMS:SCIM:SCHEMAS:CORE:2.0:USER:displayName,nosuch')}`,
    );
    expect(read.json()).toEqual({
      schemas: expect.any(Array),
      id,
      emails: [{ value: 'ada@example.com' }],
      name: { givenName: 'Ada' },
      displayName: 'Ada Lovelace',
    });

    const extension = await scim(gateway.app, 'GET', `/Users/${id}?attributes=${gatewayExtension}`);
    expect(extension.json()).toEqual({
      schemas: expect.any(Array),
      id,
      [gatewayExtension]: { team: null, admin: false },
    });
    const team = await scim(gateway.app, 'GET', `/Users/${id}?attributes=${gatewayExtension}:team,emails`);
    expect(team.json()).toEqual({
      schemas: expect.any(Array),
      id,
      [gatewayExtension]: { team: null },
      emails: [{ value: 'ada@example.com', type: 'work', primary: true }],
    });

    const everything = (await scim(gateway.app, 'GET', `/Users/${id}`)).json();
    expect((await scim(gateway.app, 'GET', `/Users/${id}?attributes=&excludedAttributes=`)).json()).toEqual(everything);

    const listed = await scim(
      gateway.app,
      'GET',
      `/Users?filter=${encodeURIComponent('userName eq "ada@example.com"')}&attributes=active`,
    );
    expect(listed.json().Resources).toEqual([{ schemas: expect.any(Array), id, active: true }]);
  });

  it('leaves out what excludedAttributes names, never id or schemas', async () => {
    await configureScim(gateway.app);
    const { id } = (await scim(gateway.app, 'POST', '/Users', oktaUser('ada@example.com'))).json();
    const full = (await scim(gateway.app, 'GET', `/Users/${id}`)).json();
    const trimmed = (
      await scim(
        gateway.app,
        'GET',
        `/Users/${id}?excludedAttributes=${encodeURIComponent('groups,emails.type,meta,id,schemas,name.familyName')}`,
      )
    ).json();
    const { groups: _groups, meta: _meta, ...rest } = full;
    expect(trimmed).toEqual({
      ...rest,
      emails: [{ value: 'ada@example.com', primary: true }],
      name: { givenName: 'Ada' },
    });
    const patched = await scim(gateway.app, 'PATCH', `/Users/${id}?excludedAttributes=emails`, {
      schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
      Operations: [{ op: 'replace', path: 'displayName', value: 'A. L.' }],
    });
    expect(patched.json()).toMatchObject({ displayName: 'A. L.' });
    expect(patched.json()).not.toHaveProperty('emails');
  });

  it('projects groups: members left out or kept alone', async () => {
    await configureScim(gateway.app);
    const { id: ada } = (await scim(gateway.app, 'POST', '/Users', oktaUser('ada@example.com'))).json();
    const { id } = (
      await scim(gateway.app, 'POST', '/Groups?excludedAttributes=members', {
        schemas: [groupSchema],
        displayName: 'Eng',
        members: [{ value: ada }],
      })
    ).json();
    const withoutMembers = (await scim(gateway.app, 'GET', `/Groups/${id}?excludedAttributes=members`)).json();
    expect(withoutMembers).toMatchObject({ id, displayName: 'Eng' });
    expect(withoutMembers).not.toHaveProperty('members');
    expect((await scim(gateway.app, 'GET', `/Groups?attributes=members.value`)).json().Resources).toEqual([
      { schemas: [groupSchema], id, members: [{ value: ada }] },
    ]);
    expect((await scim(gateway.app, 'GET', `/Groups/${id}?attributes=displayName`)).json()).toEqual({
      schemas: [groupSchema],
      id,
      displayName: 'Eng',
    });
  });

  it('refuses an attribute list that is not attribute paths', async () => {
    await configureScim(gateway.app);
    const response = await scim(
      gateway.app,
      'GET',
      `/Users?attributes=${encodeURIComponent('userName,emails[type eq "work"]')}`,
    );
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ schemas: [errorSchema], scimType: 'invalidValue' });
  });
});
