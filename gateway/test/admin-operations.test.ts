import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capabilities, type Capability } from '../src/admin/capabilities.js';
import type { AdminOperation } from '../src/admin/operation.js';
import type { Principal } from '../src/admin/principal.js';
import { v1ScopeOf } from '../src/admin/registrar.js';
import { scopeCatalog } from '../src/admin/scopes.js';
import { mintAdminKey, sessionHeaders, startAdminGateway } from './admin-support.js';
import { adminHeaders, type TestGateway } from './helpers.js';

const principal = (overrides: Partial<Principal>): Principal => ({
  kind: 'sso',
  actor: 'sso:walker@example.com',
  capabilities: new Set(),
  scopes: new Set(),
  deploymentOwner: true,
  tenant: null,
  legacyAccess: true,
  ...overrides,
});

// One session per capability and per scope, plus one that holds nothing.
const sessions: Record<string, Principal> = { nobody: principal({}) };
for (const capability of capabilities)
  sessions[`cap-${capability}`] = principal({ capabilities: new Set<Capability>([capability]) });
for (const scope of scopeCatalog)
  sessions[`scope-${scope}`] = principal({ scopes: new Set([scope]), legacyAccess: false });

const concrete = (path: string) => path.replace(/:([A-Za-z0-9_]+)|\{([A-Za-z0-9_]+)\}/g, 'x');
const openApiPath = (path: string) => path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
const denied = (status: number) => status === 401 || status === 403;
// Past its gate, this operation's answer is a verdict: 403 update_not_soft when no soft update is pending.
const answersVerdict = (operation: AdminOperation, body: string) =>
  operation.id === 'console.auth.update' && body.includes('update_not_soft');

describe('the admin operation table', () => {
  let gateway: TestGateway;
  let operations: readonly AdminOperation[];
  let document: { paths: Record<string, Record<string, Record<string, unknown>>> };
  let scopeKey: string;

  beforeAll(async () => {
    gateway = await startAdminGateway({ sessions });
    operations = gateway.app.adminOperations;
    document = (await gateway.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    scopeKey = (await mintAdminKey(gateway.app, { scopes: ['keys:read'] })).key;
  });
  afterAll(async () => {
    await gateway.close();
  });

  const call = (operation: AdminOperation, url: string, headers: Record<string, string> = {}) =>
    gateway.app.inject({ method: operation.method, url: concrete(url), headers });

  it('holds the admin plane and mounts at least the core operations', () => {
    const ids = operations.map((operation) => operation.id);
    expect(ids).toEqual(
      expect.arrayContaining([
        'me.get',
        'keys.create',
        'adminKeys.create',
        'adminKeys.revoke',
        'settings.update',
        'settings.health',
        'audit.events',
        'revokedUsers.revoke',
        'users.export',
        'users.erase',
        'traces.content',
      ]),
    );
    expect(new Set(ids).size).toBe(ids.length);
    expect(operations.filter((operation) => operation.v1).length).toBeGreaterThanOrEqual(25);
  });

  it('gates every legacy mount by its capability, with Deprecation and Link on data routes, and documents it', async () => {
    for (const operation of operations) {
      for (const mount of operation.legacy ?? []) {
        const label = `${operation.method} ${mount.path}`;
        const anonymous = await call(operation, mount.path);
        expect(anonymous.statusCode, label).toBe(401);
        expect(anonymous.json().error.code, label).toBe('unauthenticated');
        const successor = operation.successor ?? operation.v1?.path;
        const deprecated = operation.deprecatedLegacy !== false && successor !== undefined;
        if (deprecated) {
          expect(anonymous.headers.deprecation, label).toBe('true');
          expect(anonymous.headers.link, label).toBe(`<${successor}>; rel="successor-version"`);
        } else {
          expect(anonymous.headers.deprecation, label).toBeUndefined();
        }

        const nobody = await call(operation, mount.path, sessionHeaders('nobody'));
        if (operation.capability) {
          expect(nobody.statusCode, label).toBe(403);
          const holder = await call(operation, mount.path, sessionHeaders(`cap-${operation.capability}`));
          expect(
            denied(holder.statusCode) && !answersVerdict(operation, holder.body),
            `${label} with ${operation.capability}: ${holder.body}`,
          ).toBe(false);
        } else {
          expect(denied(nobody.statusCode), label).toBe(false);
        }
        // A scope-minted key is rejected by every legacy gate.
        expect((await call(operation, mount.path, { authorization: `Bearer ${scopeKey}` })).statusCode, label).toBe(
          403,
        );

        const entry = document.paths[openApiPath(mount.path)]?.[operation.method.toLowerCase()];
        expect(entry, label).toBeDefined();
        expect(entry?.['x-required-capability'], label).toBe(operation.capability);
        expect(entry?.deprecated ?? false, label).toBe(deprecated);
      }
    }
  });

  it('gates every v1 mount by its scope with the v1 envelope, and documents the extensions', async () => {
    for (const operation of operations) {
      if (!operation.v1) continue;
      const label = `${operation.method} ${operation.v1.path}`;
      const scope = v1ScopeOf(operation);
      const anonymous = await call(operation, operation.v1.path, { 'x-request-id': `walk-${operation.id}` });
      expect(anonymous.statusCode, label).toBe(401);
      expect(anonymous.headers['x-request-id'], label).toBe(`walk-${operation.id}`);
      expect(anonymous.json(), label).toEqual({
        error: { code: 'unauthenticated', message: expect.any(String), request_id: `walk-${operation.id}` },
      });

      const nobody = await call(operation, operation.v1.path, sessionHeaders('nobody'));
      if (scope) {
        expect(nobody.statusCode, label).toBe(403);
        expect(nobody.json().error, label).toMatchObject({
          code: 'insufficient_scope',
          required_scope: scope,
          request_id: nobody.headers['x-request-id'],
        });
        const holder = await call(operation, operation.v1.path, sessionHeaders(`scope-${scope}`));
        expect(denied(holder.statusCode), `${label} with ${scope}: ${holder.body}`).toBe(false);
      } else {
        expect(denied(nobody.statusCode), label).toBe(false);
      }

      const entry = document.paths[operation.v1.path]?.[operation.method.toLowerCase()];
      expect(entry, label).toBeDefined();
      expect(entry, label).toMatchObject({
        operationId: operation.id,
        'x-required-scope': scope,
        'x-scope': operation.xScope,
        'x-legacy-operation': operation.legacy?.map((mount) => `${operation.method} ${mount.path}`).join(', ') ?? null,
        'x-gw-api-status': 'stable',
      });
    }
  });

  it('answers paths and methods no operation serves in the envelope of the surface they fall under', async () => {
    const v1 = await gateway.app.inject({
      method: 'GET',
      url: '/admin/v1/providers/openai/key',
      headers: { ...adminHeaders, 'x-request-id': 'req-404' },
    });
    expect(v1.statusCode).toBe(404);
    expect(v1.headers['x-request-id']).toBe('req-404');
    expect(v1.json()).toEqual({
      error: { code: 'not_found', message: 'No route GET /admin/v1/providers/openai/key.', request_id: 'req-404' },
    });
    const minted = await gateway.app.inject({
      method: 'POST',
      url: '/admin/v1/nope',
      headers: { ...adminHeaders, 'content-type': 'application/json' },
      payload: '{not json',
    });
    expect(minted.json().error.request_id).toBe(minted.headers['x-request-id']);
    expect(minted.statusCode).toBeLessThan(500);
    const legacy = await gateway.app.inject({ method: 'GET', url: '/admin/nope', headers: adminHeaders });
    expect(legacy.json()).toEqual({ error: { code: 'not_found', message: 'No route GET /admin/nope.' } });
  });

  it('refuses provider credentials, versions and URLs no upstream header or URL can carry', async () => {
    const put = (body: Record<string, unknown>) =>
      gateway.app.inject({
        method: 'PUT',
        url: '/admin/v1/providers/azure1/key',
        headers: adminHeaders,
        payload: body,
      });
    const base = {
      type: 'azure-openai',
      apiKey: 'k',
      baseUrl: 'https://example.openai.azure.com',
      apiVersion: '2024-10-21',
    };
    for (const bad of [
      { apiVersion: '\u0000' },
      { baseUrl: 'https://example.openai.azure.com\u0000' },
      { apiKey: 'sk-abc\r\nx-evil: 1' },
      { apiKey: 'sk abc' },
    ]) {
      const response = await put({ ...base, ...bad });
      expect(response.statusCode, JSON.stringify(bad)).toBe(400);
      expect(response.json().error.code).toBe('invalid_request');
    }
  });
});
