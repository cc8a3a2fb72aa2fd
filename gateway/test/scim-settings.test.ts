import { describe, expect, it } from 'vitest';
import { adminHeaders, gatewayPerTest } from './helpers.js';
import { configureScim, errorSchema, oktaUser, scimBearer } from './scim-support.js';

describe('SCIM settings and the SCIM bearer', () => {
  const gateway = gatewayPerTest();

  it('stores the bearer as a hash only, never shows it, and keeps it when a PUT omits it', async () => {
    const before = await gateway.app.inject({ method: 'GET', url: '/admin/v1/sso/scim', headers: adminHeaders });
    expect(before.json()).toEqual({ configured: false, adminGroup: null, groupTeamMap: {}, updatedAt: null });
    await configureScim(gateway.app, { adminGroup: 'gw-admins' });
    const changed = await gateway.app.inject({
      method: 'PUT',
      url: '/admin/scim/settings',
      headers: adminHeaders,
      payload: { groupTeamMap: { Engineering: 'platform' } },
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.headers.deprecation).toBe('true');
    expect(changed.json()).toEqual({
      configured: true,
      adminGroup: 'gw-admins',
      groupTeamMap: { Engineering: 'platform' },
      updatedAt: expect.any(String),
    });
    const stored = JSON.stringify((await gateway.deps.db.query('SELECT * FROM gw_scim_settings')).rows);
    expect(stored).not.toContain(scimBearer);
    const audit = JSON.stringify((await gateway.deps.db.query('SELECT * FROM gw_audit_events')).rows);
    expect(audit).toContain('sso');
    expect(audit).not.toContain(scimBearer);
    const users = await gateway.app.inject({
      method: 'GET',
      url: '/scim/v2/Users',
      headers: { authorization: `Bearer ${scimBearer}` },
    });
    expect(users.statusCode).toBe(200);
  });

  it('refuses a short bearer and unknown fields', async () => {
    for (const payload of [
      { bearerToken: 'short' },
      { bearerToken: scimBearer, extra: true },
      { groupTeamMap: { '': 'x' } },
    ]) {
      expect(
        (await gateway.app.inject({ method: 'PUT', url: '/admin/v1/sso/scim', headers: adminHeaders, payload }))
          .statusCode,
      ).toBe(400);
    }
  });

  it('answers 401 in the SCIM envelope without a bearer, with a wrong one, before configuration and after rotation', async () => {
    const unconfigured = await gateway.app.inject({
      method: 'GET',
      url: '/scim/v2/Users',
      headers: { authorization: `Bearer ${scimBearer}` },
    });
    expect(unconfigured.statusCode).toBe(401);
    expect(unconfigured.json()).toMatchObject({
      schemas: [errorSchema],
      status: '401',
      detail: expect.stringContaining('not configured'),
    });
    await configureScim(gateway.app);
    for (const headers of [{}, { authorization: 'Bearer wrong-bearer-0123456789' }, { authorization: scimBearer }]) {
      const refused = await gateway.app.inject({
        method: 'POST',
        url: '/scim/v2/Users',
        headers: { ...headers, 'content-type': 'application/scim+json' },
        payload: JSON.stringify(oktaUser('ada@example.com')),
      });
      expect(refused.statusCode).toBe(401);
      expect(refused.headers['www-authenticate']).toContain('Bearer');
      expect(refused.json()).toMatchObject({ schemas: [errorSchema], status: '401' });
    }
    await gateway.app.inject({
      method: 'PUT',
      url: '/admin/v1/sso/scim',
      headers: adminHeaders,
      payload: { bearerToken: 'rotated-bearer-0123456789' },
    });
    expect(
      (
        await gateway.app.inject({
          method: 'GET',
          url: '/scim/v2/Users',
          headers: { authorization: `Bearer ${scimBearer}` },
        })
      ).statusCode,
    ).toBe(401);
    expect(
      (
        await gateway.app.inject({
          method: 'GET',
          url: '/scim/v2/Users',
          headers: { authorization: 'Bearer rotated-bearer-0123456789' },
        })
      ).statusCode,
    ).toBe(200);
  });

  it('serves the discovery documents: PATCH and filtering advertised, bearer authentication, User and Group types', async () => {
    await configureScim(gateway.app);
    const get = async (url: string) =>
      (
        await gateway.app.inject({
          method: 'GET',
          url: `/scim/v2${url}`,
          headers: { authorization: `Bearer ${scimBearer}` },
        })
      ).json();
    expect(await get('/ServiceProviderConfig')).toMatchObject({
      patch: { supported: true },
      filter: { supported: true },
      bulk: { supported: false },
      authenticationSchemes: [{ type: 'oauthbearertoken' }],
    });
    const types = await get('/ResourceTypes');
    expect(types.Resources.map((type: { id: string }) => type.id)).toEqual(['User', 'Group']);
    expect(await get('/ResourceTypes/Group')).toMatchObject({
      endpoint: '/Groups',
      schema: 'urn:ietf:params:scim:schemas:core:2.0:Group',
    });
    const schemas = await get('/Schemas');
    expect(schemas.totalResults).toBe(3);
    expect(await get('/Schemas/urn:ietf:params:scim:schemas:core:2.0:User')).toMatchObject({
      name: 'User',
      attributes: expect.arrayContaining([expect.objectContaining({ name: 'userName', required: true })]),
    });
  });
});
