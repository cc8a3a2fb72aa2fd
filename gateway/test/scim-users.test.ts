import { describe, expect, it } from 'vitest';
import { adminHeaders, bearer, gatewayPerTest, mintClientKey, testStores } from './helpers.js';
import { configureScim, errorSchema, oktaUser, patch, scim, scimBearer } from './scim-support.js';

describe.each(testStores)('SCIM users on %s', (_name, open) => {
  const gateway = gatewayPerTest({ open });

  const me = async (key: string) => gateway.app.inject({ method: 'GET', url: '/v1/me', headers: bearer(key) });

  it('provisions a user: 201 with its location, the SCIM media type, and nothing the IdP sent that is not kept', async () => {
    await configureScim(gateway.app);
    const created = await scim(gateway.app, 'POST', '/Users', oktaUser('ada@example.com'));
    expect(created.statusCode).toBe(201);
    expect(created.headers['content-type']).toContain('application/scim+json');
    const user = created.json();
    expect(created.headers.location).toBe(`http://localhost:80/scim/v2/Users/${user.id}`);
    expect(user).toMatchObject({
      userName: 'ada@example.com',
      active: true,
      externalId: '00u1abcd',
      displayName: 'Ada Lovelace',
      name: { givenName: 'Ada', familyName: 'Lovelace' },
      meta: { resourceType: 'User', version: 'W/"1"' },
    });
    const read = await scim(gateway.app, 'GET', `/Users/${user.id}`);
    expect(read.json()).toEqual(user);
    const { rows } = await gateway.deps.db.query('SELECT * FROM gw_scim_users');
    expect(JSON.stringify(rows)).not.toContain('never-stored-1');
  });

  it('finds a user by userName whatever its case, pages the list, and refuses a second user with the same address', async () => {
    await configureScim(gateway.app);
    for (const name of ['ada@example.com', 'grace@example.com', 'alan@example.com'])
      expect((await scim(gateway.app, 'POST', '/Users', oktaUser(name))).statusCode).toBe(201);
    const found = await scim(
      gateway.app,
      'GET',
      `/Users?filter=${encodeURIComponent('userName eq "Grace@Example.com"')}`,
    );
    expect(found.json()).toMatchObject({
      schemas: ['urn:ietf:params:scim:api:messages:2.0:ListResponse'],
      totalResults: 1,
      startIndex: 1,
      itemsPerPage: 1,
      Resources: [{ userName: 'grace@example.com' }],
    });
    const page = await scim(gateway.app, 'GET', '/Users?startIndex=2&count=1');
    expect(page.json()).toMatchObject({
      totalResults: 3,
      startIndex: 2,
      itemsPerPage: 1,
      Resources: [{ userName: 'grace@example.com' }],
    });
    const duplicate = await scim(gateway.app, 'POST', '/Users', oktaUser('ADA@example.com'));
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json()).toEqual({
      schemas: [errorSchema],
      status: '409',
      scimType: 'uniqueness',
      detail: expect.stringContaining('ADA@example.com'),
    });
  });

  it("blocks the user's keys on the next request when the IdP deactivates them, and lets them back when it reactivates", async () => {
    await configureScim(gateway.app);
    // The key names the user as minted; the identity provider spells the address otherwise.
    const { key } = await mintClientKey(gateway.app, { user: 'Ada@Example.com', team: 'compilers' });
    const { id } = (await scim(gateway.app, 'POST', '/Users', oktaUser('ada@example.com'))).json();
    expect((await me(key)).statusCode).toBe(200);
    // Microsoft Entra ID sends `Replace` and the string "False".
    const deactivated = await scim(
      gateway.app,
      'PATCH',
      `/Users/${id}`,
      patch({ op: 'Replace', path: 'active', value: 'False' }),
    );
    expect(deactivated.json()).toMatchObject({ active: false, meta: { version: 'W/"2"' } });
    const refused = await me(key);
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toMatchObject({ status: 'failure', code: 'user_deactivated' });
    // Okta sends a path-less replace with an object value.
    expect(
      (await scim(gateway.app, 'PATCH', `/Users/${id}`, patch({ op: 'replace', value: { active: true } }))).json(),
    ).toMatchObject({ active: true });
    expect((await me(key)).statusCode).toBe(200);
  });

  it('deletes softly: the user answers 404, their keys are refused, and the same address can be provisioned again', async () => {
    await configureScim(gateway.app);
    const { key } = await mintClientKey(gateway.app, { user: 'ada@example.com', team: 'compilers' });
    const { id } = (await scim(gateway.app, 'POST', '/Users', oktaUser('ada@example.com'))).json();
    const deleted = await scim(gateway.app, 'DELETE', `/Users/${id}`);
    expect(deleted.statusCode).toBe(204);
    expect(deleted.body).toBe('');
    expect((await scim(gateway.app, 'GET', `/Users/${id}`)).statusCode).toBe(404);
    expect((await scim(gateway.app, 'DELETE', `/Users/${id}`)).statusCode).toBe(404);
    expect((await scim(gateway.app, 'GET', '/Users')).json().totalResults).toBe(0);
    expect((await me(key)).json()).toMatchObject({ code: 'user_deactivated' });
    const again = await scim(gateway.app, 'POST', '/Users', oktaUser('ada@example.com'));
    expect(again.statusCode).toBe(201);
    expect(again.json().id).not.toBe(id);
    expect((await me(key)).statusCode).toBe(200);
  });

  it("keeps an administrator's revocation over the IdP's activation, and the IdP's deactivation over a reinstatement", async () => {
    await configureScim(gateway.app);
    const { key } = await mintClientKey(gateway.app, { user: 'ada@example.com', team: 'compilers' });
    const { id } = (await scim(gateway.app, 'POST', '/Users', oktaUser('ada@example.com'))).json();
    await gateway.app.inject({
      method: 'POST',
      url: '/admin/v1/users/revoked',
      headers: adminHeaders,
      payload: { email: 'ADA@example.com' },
    });
    await scim(gateway.app, 'PUT', `/Users/${id}`, oktaUser('ada@example.com', { active: true }));
    expect((await me(key)).statusCode).toBe(401);
    await scim(gateway.app, 'PATCH', `/Users/${id}`, patch({ op: 'replace', path: 'active', value: false }));
    expect(
      (
        await gateway.app.inject({
          method: 'DELETE',
          url: '/admin/v1/users/revoked/ada%40example.com',
          headers: adminHeaders,
        })
      ).statusCode,
    ).toBe(200);
    expect((await me(key)).statusCode).toBe(401);
    await scim(gateway.app, 'PATCH', `/Users/${id}`, patch({ op: 'replace', path: 'active', value: true }));
    expect((await me(key)).statusCode).toBe(200);
  });

  it('answers every failure in the SCIM error envelope', async () => {
    await configureScim(gateway.app);
    const cases = [
      { response: await scim(gateway.app, 'GET', '/Users/no-such-user'), status: 404 },
      {
        response: await scim(gateway.app, 'POST', '/Users', {
          schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
        }),
        status: 400,
        scimType: 'invalidValue',
      },
      {
        response: await scim(gateway.app, 'GET', `/Users?filter=${encodeURIComponent('userName lw "ada"')}`),
        status: 400,
        scimType: 'invalidFilter',
      },
      {
        response: await scim(gateway.app, 'GET', `/Users?filter=${encodeURIComponent('favouriteColour eq "x"')}`),
        status: 400,
        scimType: 'invalidFilter',
      },
      {
        response: await gateway.app.inject({
          method: 'POST',
          url: '/scim/v2/Users',
          headers: { authorization: `Bearer ${scimBearer}`, 'content-type': 'application/scim+json' },
          payload: '{"userName":',
        }),
        status: 400,
        scimType: 'invalidSyntax',
      },
      { response: await scim(gateway.app, 'GET', '/Bulk'), status: 404 },
    ];
    for (const { response, status, scimType } of cases) {
      expect(response.statusCode, response.body).toBe(status);
      expect(response.headers['content-type']).toContain('application/scim+json');
      expect(response.json()).toMatchObject({
        schemas: [errorSchema],
        status: String(status),
        detail: expect.any(String),
        ...(scimType ? { scimType } : {}),
      });
    }
  });
});

describe('SCIM data in GDPR export and erase', () => {
  const gateway = gatewayPerTest();

  it('exports what the identity provider provisioned and erases it with the rest', async () => {
    await configureScim(gateway.app);
    await scim(gateway.app, 'POST', '/Users', oktaUser('ada@example.com'));
    const exported = await gateway.app.inject({
      method: 'GET',
      url: '/admin/v1/users/ada%40example.com/export',
      headers: adminHeaders,
    });
    expect(exported.json().scim).toMatchObject({
      user_name: 'ada@example.com',
      display_name: 'Ada Lovelace',
      active: true,
      groups: [],
    });
    const erased = await gateway.app.inject({
      method: 'DELETE',
      url: '/admin/v1/users/ada%40example.com/data',
      headers: adminHeaders,
    });
    expect(erased.json().erased).toMatchObject({ scim: 1 });
    expect((await scim(gateway.app, 'GET', '/Users')).json().totalResults).toBe(0);
  });
});

describe('SCIM filters that name no attribute of ours', () => {
  const gateway = gatewayPerTest();

  it('answers invalidFilter for attribute names that are object properties, never a store error', async () => {
    await configureScim(gateway.app);
    for (const attribute of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
      const response = await scim(gateway.app, 'GET', `/Users?filter=${encodeURIComponent(`${attribute} eq "x"`)}`);
      expect(response.statusCode, attribute).toBe(400);
      expect(response.json()).toMatchObject({ scimType: 'invalidFilter' });
      expect(
        (await scim(gateway.app, 'GET', `/Groups?filter=${encodeURIComponent(`${attribute} eq "x"`)}`)).statusCode,
      ).toBe(400);
    }
  });
});
