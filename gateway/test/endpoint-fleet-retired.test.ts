import { describe, expect, it } from 'vitest';
import { retiredLaneCode, retiredServerLaneRoutes } from '../src/fleet/admin/retired-server-lane.operations.js';
import { adminHeaders, gatewayPerTest } from './helpers.js';

// The retired self-hosted server lane: every legacy route answers 410 naming the evidence-service route that replaced
// it, in the legacy admin envelope, with the successor in the Link header, and is declared as such in OpenAPI.

const concrete = (path: string) => path.replace(':id', 'host-17');

describe('the retired self-hosted server lane (/admin/endpoint-fleet)', () => {
  const gateway = gatewayPerTest();

  it('lists exactly the retired routes: config, pack, sync, hosts, run-script and the enroll secret', () => {
    expect(retiredServerLaneRoutes.map(({ method, path }) => `${method} ${path}`).sort()).toEqual(
      [
        'GET /admin/endpoint-fleet',
        'PUT /admin/endpoint-fleet',
        'DELETE /admin/endpoint-fleet',
        'GET /admin/endpoint-fleet/pack',
        'POST /admin/endpoint-fleet/sync',
        'GET /admin/endpoint-fleet/hosts/:id',
        'POST /admin/endpoint-fleet/hosts/:id/run-script',
        'GET /admin/endpoint-fleet/enroll-secret',
        'POST /admin/endpoint-fleet/enroll-secret/rotate',
      ].sort(),
    );
  });

  it.each(retiredServerLaneRoutes)(
    '$method $path answers 410 naming $successor',
    async ({ method, path, successor }) => {
      const response = await gateway.app.inject({
        method,
        url: concrete(path),
        headers: adminHeaders,
        ...(method === 'PUT'
          ? {
              payload: {
                url: 'https://fleet.example.com',
                apiToken: 'fleet-api-token-hunter2',
                webhookSecret: 'whsec-hunter2',
              },
            }
          : {}),
      });
      expect(response.statusCode).toBe(410);
      expect(response.json()).toEqual({
        error: { code: retiredLaneCode, message: expect.stringContaining(successor) },
      });
      expect(response.json().error.message).toContain(`${method} ${path} is retired`);
      expect(response.headers.deprecation).toBe('true');
      expect(response.headers.link).toBe(`<${successor}>; rel="successor-version"`);
      expect(response.body).not.toContain('hunter2');
    },
  );

  it('still asks for an admin credential first, and records nothing', async () => {
    const anonymous = await gateway.app.inject({ method: 'GET', url: '/admin/endpoint-fleet/enroll-secret' });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().error.code).toBe('unauthenticated');
    await gateway.app.inject({ method: 'POST', url: '/admin/endpoint-fleet/sync', headers: adminHeaders });
    const audit = (
      await gateway.app.inject({ method: 'GET', url: '/admin/v1/audit/events', headers: adminHeaders })
    ).json().data as unknown[];
    expect(JSON.stringify(audit)).not.toContain('endpointFleet');
  });

  it('leaves the live lane routes of the same prefix alone', async () => {
    expect(
      (await gateway.app.inject({ method: 'GET', url: '/admin/endpoint-fleet/mdm-servers', headers: adminHeaders }))
        .statusCode,
    ).toBe(200);
    expect(
      (await gateway.app.inject({ method: 'GET', url: '/admin/endpoint-fleet/status', headers: adminHeaders }))
        .statusCode,
    ).toBe(200);
  });

  it('declares each 410 and its envelope in the OpenAPI document, with no v1 twin', async () => {
    const document = (await gateway.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    for (const { method, path, successor } of retiredServerLaneRoutes) {
      const openApiPath = path.replace(':id', '{id}');
      const operation = document.paths[openApiPath]?.[method.toLowerCase()];
      expect(operation, `${method} ${path}`).toBeDefined();
      expect(operation.deprecated).toBe(true);
      expect(operation.summary).toContain(successor);
      const gone = operation.responses['410'].content['application/json'].schema;
      expect(gone.properties.error.properties.code.const ?? gone.properties.error.properties.code.enum?.[0]).toBe(
        retiredLaneCode,
      );
    }
    expect(
      Object.keys(document.paths).filter((path) => path.startsWith('/admin/v1/') && path.includes('endpoint-fleet')),
    ).toEqual([]);
  });
});
