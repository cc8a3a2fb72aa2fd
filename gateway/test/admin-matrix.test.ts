import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rolePrincipal } from '../src/admin/principal.js';
import { roles, type Role } from '../src/admin/roles.js';
import { mintAdminKey, sessionHeaders, startAdminGateway } from './admin-support.js';
import { adminHeaders, bearer, type TestGateway } from './helpers.js';

const sessions = Object.fromEntries(roles.map((role) => [role, rolePrincipal(role, { email: `${role}@example.com` })]));

// Hand-written expectations: the lowest role that passes each gate.
const v1Rows: ReadonlyArray<
  [method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, scope: string | null, lowest: Role]
> = [
  ['GET', '/admin/v1/me', null, 'viewer'],
  ['GET', '/admin/v1/keys', 'keys:read', 'viewer'],
  ['POST', '/admin/v1/keys', 'keys:write', 'operator'],
  ['GET', '/admin/v1/admin-keys', 'admin-keys:read', 'viewer'],
  ['POST', '/admin/v1/admin-keys', 'admin-keys:write', 'security_admin'],
  ['GET', '/admin/v1/audit/events', 'audit:read', 'auditor'],
  ['GET', '/admin/v1/audit/auth-events', 'audit:read', 'auditor'],
  ['GET', '/admin/v1/traces', 'traces:read', 'auditor'],
  ['GET', '/admin/v1/traces/tr_x/content', 'traces:content', 'owner'],
  ['GET', '/admin/v1/settings', 'settings:read', 'viewer'],
  ['PUT', '/admin/v1/settings', 'settings:write', 'owner'],
  ['GET', '/admin/v1/settings/health', 'settings:read', 'viewer'],
  ['GET', '/admin/v1/users/revoked', 'users:read', 'viewer'],
  ['POST', '/admin/v1/users/revoked', 'users:revoke', 'security_admin'],
  ['GET', '/admin/v1/users/someone%40example.com/export', 'users:gdpr', 'security_admin'],
];

const legacyRows: ReadonlyArray<[method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, lowest: Role]> = [
  ['GET', '/admin/me', 'viewer'],
  ['GET', '/admin/service-keys', 'viewer'],
  ['POST', '/admin/client-keys', 'operator'],
  ['GET', '/admin/api-keys', 'viewer'],
  ['POST', '/admin/api-keys', 'security_admin'],
  ['GET', '/admin/auth-events', 'viewer'],
  ['GET', '/admin/observability/traces', 'auditor'],
  ['PUT', '/admin/settings', 'owner'],
  ['PUT', '/admin/settings/identity', 'security_admin'],
  ['DELETE', '/admin/revoked-users/someone%40example.com', 'security_admin'],
  ['GET', '/admin/health', 'viewer'],
];

const rank = (role: Role) => roles.indexOf(role);
const gatePassed = (status: number) => status !== 401 && status !== 403;

describe('roles × routes', () => {
  let gateway: TestGateway;
  beforeAll(async () => {
    gateway = await startAdminGateway({ sessions });
  });
  afterAll(async () => {
    await gateway.close();
  });

  it('lets each role through exactly the v1 gates its capabilities translate to, and names the missing scope', async () => {
    for (const [method, url, scope, lowest] of v1Rows) {
      expect((await gateway.app.inject({ method, url })).statusCode, `${method} ${url} anonymous`).toBe(401);
      for (const role of roles) {
        const response = await gateway.app.inject({ method, url, headers: sessionHeaders(role) });
        const label = `${role} ${method} ${url}: ${response.body}`;
        if (rank(role) >= rank(lowest)) {
          expect(gatePassed(response.statusCode), label).toBe(true);
        } else {
          expect(response.statusCode, label).toBe(403);
          expect(response.json().error, label).toMatchObject({ code: 'insufficient_scope', required_scope: scope });
        }
      }
    }
  });

  it('lets each role through exactly the legacy gates of its capabilities', async () => {
    for (const [method, url, lowest] of legacyRows) {
      expect((await gateway.app.inject({ method, url })).statusCode, `${method} ${url} anonymous`).toBe(401);
      for (const role of roles) {
        const response = await gateway.app.inject({ method, url, headers: sessionHeaders(role) });
        const label = `${role} ${method} ${url}: ${response.body}`;
        if (rank(role) >= rank(lowest)) expect(gatePassed(response.statusCode), label).toBe(true);
        else expect(response.statusCode, label).toBe(403);
      }
    }
  });
});

describe('admin API keys × routes', () => {
  let gateway: TestGateway;
  beforeAll(async () => {
    gateway = await startAdminGateway();
  });
  afterAll(async () => {
    await gateway.close();
  });

  it('holds a scope-minted key to its scopes on v1 and out of every legacy route', async () => {
    const { key } = await mintAdminKey(gateway.app, { scopes: ['keys:read', 'audit:read'], label: 'reader' });
    const as = (method: 'GET' | 'POST', url: string, payload?: object) =>
      gateway.app.inject({ method, url, headers: bearer(key), ...(payload ? { payload } : {}) });
    expect((await as('GET', '/admin/v1/keys')).statusCode).toBe(200);
    expect((await as('GET', '/admin/v1/audit/events')).statusCode).toBe(200);
    const write = await as('POST', '/admin/v1/keys', { user: 'a@example.com', team: 't' });
    expect(write.statusCode).toBe(403);
    expect(write.json().error).toMatchObject({ code: 'insufficient_scope', required_scope: 'keys:write' });
    expect((await as('GET', '/admin/v1/settings')).json().error.required_scope).toBe('settings:read');
    const me = (await as('GET', '/admin/v1/me')).json();
    expect(me).toMatchObject({ kind: 'api-key', capabilities: [], scopes: ['audit:read', 'keys:read'] });
    expect((await as('GET', '/admin/service-keys')).statusCode).toBe(403);
    expect((await as('GET', '/admin/me')).statusCode).toBe(403);
  });

  it('gives a caps-minted key its capabilities on legacy routes and their translated scopes on v1', async () => {
    const { key } = await mintAdminKey(gateway.app, { caps: ['config:read', 'clientkeys:manage'] });
    const as = (method: 'GET' | 'POST', url: string, payload?: object) =>
      gateway.app.inject({ method, url, headers: bearer(key), ...(payload ? { payload } : {}) });
    expect((await as('GET', '/admin/service-keys')).statusCode).toBe(200);
    expect((await as('POST', '/admin/client-keys', { user: 'b@example.com', team: 't' })).statusCode).toBe(201);
    expect((await as('GET', '/admin/v1/keys')).statusCode).toBe(200);
    expect((await as('POST', '/admin/v1/keys', { user: 'c@example.com', team: 't' })).statusCode).toBe(201);
    expect((await as('GET', '/admin/v1/audit/events')).json().error).toMatchObject({
      code: 'insufficient_scope',
      required_scope: 'audit:read',
    });
    expect((await as('GET', '/admin/observability/traces')).statusCode).toBe(403);
    expect((await as('POST', '/admin/api-keys', { caps: ['config:read'] })).statusCode).toBe(403);
    expect((await as('GET', '/admin/me')).json()).toMatchObject({
      actor: expect.stringMatching(/^apikey:admkey_/),
      capabilities: ['config:read', 'clientkeys:manage'],
    });
  });

  it('never accepts an aak_ key on the inference plane', async () => {
    const { key } = await mintAdminKey(gateway.app, { caps: ['config:read'] });
    for (const headers of [bearer(key), { 'x-api-key': key }, { 'x-gw-api-key': key }]) {
      const response = await gateway.app.inject({ method: 'GET', url: '/v1/me', headers });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toMatchObject({ status: 'failure', code: 'key_unknown' });
    }
    expect((await gateway.app.inject({ method: 'GET', url: '/v1/me', headers: adminHeaders })).statusCode).toBe(401);
  });
});

describe('fleet mode', () => {
  const fleetSessions = {
    'tenant-owner': rolePrincipal('owner', { email: 'owner@acme.example', tenant: 'acme' }),
    owner: rolePrincipal('owner', { email: 'root@example.com' }),
  };
  let fleet: TestGateway;
  let single: TestGateway;
  beforeAll(async () => {
    fleet = await startAdminGateway({ sessions: fleetSessions, env: { GW_MULTI_TENANT: 'true' } });
    single = await startAdminGateway({ sessions: fleetSessions });
  });
  afterAll(async () => {
    await fleet.close();
    await single.close();
  });

  it('keeps a tenant-bound principal to tenant resources with 403 deployment_scope_required', async () => {
    const tenant = sessionHeaders('tenant-owner');
    for (const url of [
      '/admin/v1/keys',
      '/admin/v1/settings/health',
      '/admin/v1/traces',
      '/admin/v1/users/x%40acme.example/export',
    ]) {
      expect((await fleet.app.inject({ method: 'GET', url, headers: tenant })).statusCode, url).toBe(200);
    }
    for (const url of [
      '/admin/v1/admin-keys',
      '/admin/v1/settings',
      '/admin/v1/audit/events',
      '/admin/v1/users/revoked',
    ]) {
      const response = await fleet.app.inject({ method: 'GET', url, headers: tenant });
      expect(response.statusCode, url).toBe(403);
      expect(response.json().error, url).toMatchObject({
        code: 'deployment_scope_required',
        request_id: expect.any(String),
      });
    }
    const legacy = await fleet.app.inject({ method: 'GET', url: '/admin/settings', headers: tenant });
    expect(legacy.statusCode).toBe(403);
    expect(legacy.json().error.code).toBe('deployment_scope_required');
    expect((await fleet.app.inject({ method: 'GET', url: '/admin/me', headers: tenant })).json()).toMatchObject({
      tenant: 'acme',
      deploymentOwner: false,
    });
  });

  it('lets deployment principals everywhere, and tenant principals everywhere outside fleet mode', async () => {
    expect(
      (await fleet.app.inject({ method: 'GET', url: '/admin/v1/admin-keys', headers: sessionHeaders('owner') }))
        .statusCode,
    ).toBe(200);
    expect(
      (await fleet.app.inject({ method: 'GET', url: '/admin/me', headers: sessionHeaders('owner') })).json()
        .deploymentOwner,
    ).toBe(true);
    expect(
      (await fleet.app.inject({ method: 'GET', url: '/admin/v1/admin-keys', headers: adminHeaders })).statusCode,
    ).toBe(200);
    expect(
      (await single.app.inject({ method: 'GET', url: '/admin/v1/admin-keys', headers: sessionHeaders('tenant-owner') }))
        .statusCode,
    ).toBe(200);
  });
});
