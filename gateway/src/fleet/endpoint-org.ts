import type { EndpointControlClient } from './endpoint-control.client.js';

/**
 * The evidence-service organization a caller's fleet lives in: the deployment's (`default`), or in fleet mode a
 * tenant's own (`tenant-<tenant>`), so tenants never see each other's hosts. Bound idempotently (`PUT /admin/orgs/:id`)
 * the first time this process uses it.
 */
export class EndpointOrgBinder {
  private readonly bound = new Set<string>();

  constructor(private readonly client: EndpointControlClient) {}

  orgIdOf(tenant: string | null): string {
    return tenant === null ? 'default' : `tenant-${tenant.replace(/[^A-Za-z0-9_.-]/g, '_')}`.slice(0, 100);
  }

  async bind(tenant: string | null): Promise<string> {
    const orgId = this.orgIdOf(tenant);
    if (this.bound.has(orgId)) return orgId;
    const answer = await this.client.request('PUT', `/admin/orgs/${orgId}`, { name: tenant ?? 'gw deployment' });
    if (answer.status === 200 || answer.status === 201) this.bound.add(orgId);
    return orgId;
  }
}
