import { describe, expect, it } from 'vitest';
import { adminHeaders, bearer, gatewayPerTest, mintClientKey } from './helpers.js';
import { configureScim, groupSchema, oktaUser, patch, scim } from './scim-support.js';

// Findings of a black-box audit of the SCIM surface, each kept as a regression test.
describe('SCIM provisioning under what identity providers really send', () => {
  const gateway = gatewayPerTest();
  const verify = async (key: string) =>
    (await gateway.app.inject({ method: 'POST', url: '/connect/verify', headers: bearer(key) })).statusCode;

  it('keeps a deactivated user blocked under its old address after the identity provider renames it', async () => {
    await configureScim(gateway.app);
    const { key } = await mintClientKey(gateway.app, { user: 'frank@example.com', team: 'eng' });
    const frank = (await scim(gateway.app, 'POST', '/Users', oktaUser('frank@example.com'))).json();
    await scim(gateway.app, 'PATCH', `/Users/${frank.id}`, patch({ op: 'replace', value: { active: false } }));
    expect(await verify(key)).toBe(401);
    const renamed = await scim(
      gateway.app,
      'PATCH',
      `/Users/${frank.id}`,
      patch({ op: 'replace', path: 'userName', value: 'frank.new@example.com' }),
    );
    expect(renamed.json()).toMatchObject({ userName: 'frank.new@example.com', active: false });
    expect(await verify(key)).toBe(401);
    // A rename of an active user, then a delete, blocks the keys of both addresses.
    const { key: ginaKey } = await mintClientKey(gateway.app, { user: 'gina@example.com', team: 'eng' });
    const gina = (await scim(gateway.app, 'POST', '/Users', oktaUser('gina@example.com'))).json();
    await scim(gateway.app, 'PUT', `/Users/${gina.id}`, oktaUser('gina.x@example.com'));
    expect(await verify(ginaKey)).toBe(200);
    await scim(gateway.app, 'DELETE', `/Users/${gina.id}`);
    expect(await verify(ginaKey)).toBe(401);
  });

  it('keeps a user inactive when a PUT leaves out active', async () => {
    await configureScim(gateway.app);
    const user = (await scim(gateway.app, 'POST', '/Users', oktaUser('x4@example.com', { active: false }))).json();
    const { active: _omitted, ...withoutActive } = oktaUser('x4@example.com', { displayName: 'X Four' });
    const replaced = await scim(gateway.app, 'PUT', `/Users/${user.id}`, withoutActive);
    expect(replaced.json()).toMatchObject({ displayName: 'X Four', active: false });
  });

  it('refuses to bring a deleted user back as a group member', async () => {
    await configureScim(gateway.app);
    const { key } = await mintClientKey(gateway.app, { user: 'bob@example.com', team: 'eng' });
    const bob = (await scim(gateway.app, 'POST', '/Users', oktaUser('bob@example.com'))).json();
    await scim(gateway.app, 'DELETE', `/Users/${bob.id}`);
    const group = (await scim(gateway.app, 'POST', '/Groups', { schemas: [groupSchema], displayName: 'Eng' })).json();
    const added = await scim(
      gateway.app,
      'PATCH',
      `/Groups/${group.id}`,
      patch({ op: 'add', path: 'members', value: [{ value: 'bob@example.com', display: 'bob@example.com' }] }),
    );
    expect(added.statusCode).toBe(400);
    expect(await verify(key)).toBe(401);
  });

  it('applies parallel membership changes one after the other: none is lost', async () => {
    await configureScim(gateway.app);
    const ids: string[] = [];
    for (let index = 0; index < 8; index += 1)
      ids.push((await scim(gateway.app, 'POST', '/Users', oktaUser(`member${index}@example.com`))).json().id);
    const group = (
      await scim(gateway.app, 'POST', '/Groups', { schemas: [groupSchema], displayName: 'Parallel' })
    ).json();
    const answers = await Promise.all(
      ids.map((id) =>
        scim(
          gateway.app,
          'PATCH',
          `/Groups/${group.id}`,
          patch({ op: 'add', path: 'members', value: [{ value: id }] }),
        ),
      ),
    );
    expect(answers.every((answer) => answer.statusCode === 200)).toBe(true);
    const members = (await scim(gateway.app, 'GET', `/Groups/${group.id}`))
      .json()
      .members.map((member: { value: string }) => member.value);
    expect(members.sort()).toEqual([...ids].sort());
  });

  it('answers 400, never a 500, to values the store cannot hold', async () => {
    await configureScim(gateway.app);
    for (const [method, url, body] of [
      ['POST', '/Users', oktaUser('a\u0000b@example.com')],
      ['POST', '/Groups', { schemas: [groupSchema], displayName: 'G\u0000X' }],
      ['GET', '/Users/%00', undefined],
    ] as const) {
      const response = await scim(gateway.app, method, url, body);
      expect(response.statusCode, `${method} ${url}`).toBe(400);
      expect(response.json()).toMatchObject({ status: '400', scimType: 'invalidValue' });
    }
    for (const url of ['/Users?startIndex=99999999999999999999', '/Groups?startIndex=99999999999999999999&count=5']) {
      const response = await scim(gateway.app, 'GET', url);
      expect(response.statusCode, url).toBe(200);
      expect(response.json()).toMatchObject({ Resources: [] });
    }
    expect(
      (await gateway.app.inject({ method: 'GET', url: '/admin/v1/sso/scim', headers: adminHeaders })).statusCode,
    ).toBe(200);
  });
});
