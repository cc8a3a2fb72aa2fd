import { describe, expect, it } from 'vitest';
import { gatewayPerTest, testStores } from './helpers.js';
import { configureScim, groupSchema, oktaUser, patch, scim } from './scim-support.js';

describe.each(testStores)('SCIM e-mail addresses on %s', (_name, open) => {
  const gateway = gatewayPerTest({ open });

  const storedRow = async (id: string) =>
    (await gateway.deps.db.query('SELECT * FROM gw_scim_users WHERE id = $1', [id])).rows[0];

  it('keeps every address the identity provider sends, and nothing it must not store', async () => {
    await configureScim(gateway.app);
    const created = await scim(gateway.app, 'POST', '/Users', {
      ...oktaUser('ada@example.com'),
      emails: [
        { value: 'ada@example.com', type: 'work', primary: true, verified: 'sent-by-idp' },
        { value: 'ada@home.example', type: 'home', display: 'Home' },
      ],
      phoneNumbers: [{ value: '+44 20 7946 0000', type: 'work' }],
      addresses: [{ streetAddress: '12 Marylebone Road', type: 'work' }],
      'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User': { employeeNumber: 'EMP-77' },
    });
    expect(created.statusCode).toBe(201);
    const user = created.json();
    expect(user.emails).toEqual([
      { value: 'ada@example.com', type: 'work', primary: true },
      { value: 'ada@home.example', type: 'home', primary: false, display: 'Home' },
    ]);
    const row = JSON.stringify(await storedRow(user.id));
    for (const dropped of ['never-stored-1', '7946', 'Marylebone', 'EMP-77', 'sent-by-idp'])
      expect(row).not.toContain(dropped);
    expect((await scim(gateway.app, 'GET', `/Users/${user.id}`)).json().emails).toEqual(user.emails);
  });

  it('patches addresses as Entra ID and Okta send them, without touching userName', async () => {
    await configureScim(gateway.app);
    const { id } = (await scim(gateway.app, 'POST', '/Users', oktaUser('ada@example.com'))).json();
    const changed = await scim(
      gateway.app,
      'PATCH',
      `/Users/${id}`,
      patch(
        { op: 'Replace', path: 'emails[type eq "work"].value', value: 'ada.lovelace@example.com' },
        { op: 'Add', path: 'emails', value: [{ value: 'ada@home.example', type: 'home', primary: true }] },
      ),
    );
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({
      userName: 'ada@example.com',
      emails: [
        { value: 'ada.lovelace@example.com', type: 'work', primary: false },
        { value: 'ada@home.example', type: 'home', primary: true },
      ],
    });
    const removed = await scim(
      gateway.app,
      'PATCH',
      `/Users/${id}`,
      patch({ op: 'remove', path: 'emails[type eq "home"]' }),
    );
    expect(removed.json().emails).toEqual([{ value: 'ada.lovelace@example.com', type: 'work', primary: false }]);
    const noTarget = await scim(
      gateway.app,
      'PATCH',
      `/Users/${id}`,
      patch({ op: 'replace', path: 'emails[value eq "nobody@x.y"].type', value: 'work' }),
    );
    expect(noTarget.statusCode).toBe(400);
    expect(noTarget.json()).toMatchObject({ status: '400', scimType: 'noTarget' });
    // A PUT replaces the list as sent; one without emails empties it.
    const { emails: _emails, ...withoutEmails } = oktaUser('ada@example.com');
    const replaced = await scim(gateway.app, 'PUT', `/Users/${id}`, withoutEmails);
    expect(replaced.json()).not.toHaveProperty('emails');
    expect((await storedRow(id)).emails).toEqual([]);
  });

  it('refuses two primary addresses, and gives a member provisioned by address that address', async () => {
    await configureScim(gateway.app);
    const twoPrimaries = await scim(gateway.app, 'POST', '/Users', {
      ...oktaUser('ada@example.com'),
      emails: [
        { value: 'a@x.y', primary: true },
        { value: 'b@x.y', primary: true },
      ],
    });
    expect(twoPrimaries.statusCode).toBe(400);
    expect(twoPrimaries.json()).toMatchObject({ scimType: 'invalidValue' });
    await scim(gateway.app, 'POST', '/Groups', {
      schemas: [groupSchema],
      displayName: 'Eng',
      members: [{ value: 'grace@example.com' }],
    });
    const grace = (
      await scim(gateway.app, 'GET', `/Users?filter=${encodeURIComponent('emails.value eq "grace@example.com"')}`)
    ).json();
    expect(grace.Resources).toEqual([
      expect.objectContaining({
        userName: 'grace@example.com',
        emails: [{ value: 'grace@example.com', primary: true }],
      }),
    ]);
  });
});
