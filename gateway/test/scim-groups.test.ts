import { describe, expect, it } from 'vitest';
import { gatewayPerTest, testStores } from './helpers.js';
import { configureScim, groupSchema, oktaUser, patch, scim } from './scim-support.js';

const gatewayExtension = 'urn:gw:params:scim:schemas:extension:gateway:2.0:User';

describe.each(testStores)('SCIM groups on %s', (_name, open) => {
  const gateway = gatewayPerTest({ open });

  const provision = async (userName: string): Promise<string> =>
    (await scim(gateway.app, 'POST', '/Users', oktaUser(userName))).json().id;
  const mappingOf = async (id: string) => (await scim(gateway.app, 'GET', `/Users/${id}`)).json()[gatewayExtension];

  it('maps group membership to a team and the administrator role, and recomputes it on every change', async () => {
    await configureScim(gateway.app, {
      groupTeamMap: { Engineering: 'platform', Research: 'labs' },
      adminGroup: 'gw-admins',
    });
    const ada = await provision('ada@example.com');
    const created = await scim(gateway.app, 'POST', '/Groups', {
      schemas: [groupSchema],
      displayName: 'Engineering',
      members: [{ value: ada, display: 'ada@example.com' }],
    });
    expect(created.statusCode).toBe(201);
    const engineering = created.json();
    expect(engineering).toMatchObject({
      displayName: 'Engineering',
      members: [{ value: ada, display: 'ada@example.com' }],
      meta: { resourceType: 'Group' },
    });
    expect(await mappingOf(ada)).toEqual({ team: 'platform', admin: false });

    const admins = (
      await scim(gateway.app, 'POST', '/Groups', { schemas: [groupSchema], displayName: 'GW-Admins', members: [] })
    ).json();
    // Okta adds members with an array of values.
    await scim(
      gateway.app,
      'PATCH',
      `/Groups/${admins.id}`,
      patch({ op: 'add', path: 'members', value: [{ value: ada, display: 'ada@example.com' }] }),
    );
    expect(await mappingOf(ada)).toEqual({ team: 'platform', admin: true });

    // Okta removes a member by a filtered path; the user keeps only the admin group.
    const removed = await scim(
      gateway.app,
      'PATCH',
      `/Groups/${engineering.id}`,
      patch({ op: 'remove', path: `members[value eq "${ada}"]` }),
    );
    expect(removed.json()).toMatchObject({ members: [] });
    expect(await mappingOf(ada)).toEqual({ team: null, admin: true });

    // A new mapping in the settings applies to provisioned users at once.
    await configureScim(gateway.app, { groupTeamMap: { 'gw-admins': 'operators' } });
    expect(await mappingOf(ada)).toEqual({ team: 'operators', admin: true });

    expect((await scim(gateway.app, 'DELETE', `/Groups/${admins.id}`)).statusCode).toBe(204);
    expect(await mappingOf(ada)).toEqual({ team: null, admin: false });
    expect((await scim(gateway.app, 'GET', `/Users/${ada}`)).json().groups).toEqual([]);
  });

  it('resolves members named by address, provisioning a missing one, and lists groups with or without members', async () => {
    await configureScim(gateway.app);
    const grace = await provision('grace@example.com');
    const created = await scim(gateway.app, 'POST', '/Groups', {
      schemas: [groupSchema],
      displayName: 'Compilers',
      members: [{ value: 'Grace@Example.com' }, { value: 'x1', display: 'alan@example.com' }],
    });
    expect(created.statusCode).toBe(201);
    const members = created.json().members as Array<{ value: string; display: string }>;
    expect(members.map((member) => member.display)).toEqual(['grace@example.com', 'alan@example.com']);
    expect(members[0]?.value).toBe(grace);
    expect(
      (await scim(gateway.app, 'GET', `/Users?filter=${encodeURIComponent('userName eq "alan@example.com"')}`)).json()
        .totalResults,
    ).toBe(1);

    const byName = await scim(
      gateway.app,
      'GET',
      `/Groups?filter=${encodeURIComponent('displayName eq "compilers"')}&excludedAttributes=members`,
    );
    expect(byName.json()).toMatchObject({ totalResults: 1, Resources: [{ displayName: 'Compilers' }] });
    expect(byName.json().Resources[0]).not.toHaveProperty('members');
    expect(
      (await scim(gateway.app, 'POST', '/Groups', { schemas: [groupSchema], displayName: 'compilers' })).statusCode,
    ).toBe(409);
    const unknown = await scim(gateway.app, 'POST', '/Groups', {
      schemas: [groupSchema],
      displayName: 'Other',
      members: [{ value: 'not-a-user' }],
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({ scimType: 'invalidValue' });
  });

  it('renames, replaces members with PUT, and answers 404 for a group that is gone', async () => {
    await configureScim(gateway.app);
    const ada = await provision('ada@example.com');
    const grace = await provision('grace@example.com');
    const group = (
      await scim(gateway.app, 'POST', '/Groups', {
        schemas: [groupSchema],
        displayName: 'Old',
        members: [{ value: ada }],
      })
    ).json();
    // Okta renames with a path-less replace carrying the id and the new name.
    const renamed = await scim(
      gateway.app,
      'PATCH',
      `/Groups/${group.id}`,
      patch({ op: 'replace', value: { id: group.id, displayName: 'New' } }),
    );
    expect(renamed.json()).toMatchObject({ displayName: 'New', members: [{ value: ada }] });
    const replaced = await scim(gateway.app, 'PUT', `/Groups/${group.id}`, {
      schemas: [groupSchema],
      displayName: 'New',
      members: [{ value: grace }],
    });
    expect(replaced.json().members).toEqual([expect.objectContaining({ value: grace })]);
    expect((await scim(gateway.app, 'DELETE', `/Groups/${group.id}`)).statusCode).toBe(204);
    expect((await scim(gateway.app, 'GET', `/Groups/${group.id}`)).statusCode).toBe(404);
    expect(
      (
        await scim(
          gateway.app,
          'PATCH',
          `/Groups/${group.id}`,
          patch({ op: 'add', path: 'members', value: [{ value: ada }] }),
        )
      ).statusCode,
    ).toBe(404);
  });
});
