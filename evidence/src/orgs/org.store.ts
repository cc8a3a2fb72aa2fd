import { randomToken, type Clock, type Db, isoTimestamp } from '@gw/platform';

export interface Org {
  id: string;
  name: string;
  gatewayUrl: string | null;
  gatewayHostname: string | null;
  billingTenantId: string | null;
  createdAt: string;
}

interface OrgRow {
  id: string;
  name: string;
  gateway_url: string | null;
  gateway_hostname: string | null;
  billing_tenant_id: string | null;
  created_at: Date | string;
}

const columns = 'id, name, gateway_url, gateway_hostname, billing_tenant_id, created_at';
const toOrg = (row: OrgRow): Org => ({
  id: row.id,
  name: row.name,
  gatewayUrl: row.gateway_url,
  gatewayHostname: row.gateway_hostname,
  billingTenantId: row.billing_tenant_id,
  createdAt: isoTimestamp(row.created_at),
});

/** Organizations and their per-organization policy switches. */
export class OrgStore {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  async create(input: {
    name: string;
    gatewayUrl?: string | undefined;
    billingTenantId?: string | undefined;
  }): Promise<Org> {
    const hostname = input.gatewayUrl ? new URL(input.gatewayUrl).hostname : null;
    const { rows } = await this.db.query<OrgRow>(
      `INSERT INTO ev_orgs (id, name, gateway_url, gateway_hostname, billing_tenant_id, created_at) VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${columns}`,
      [
        `org_${randomToken(12)}`,
        input.name,
        input.gatewayUrl ?? null,
        hostname,
        input.billingTenantId ?? null,
        new Date(this.clock.now()),
      ],
    );
    return toOrg(rows[0]);
  }

  /**
   * Create the organization under a caller-chosen id, or update its name and gateway when it exists: how a gateway
   * binds itself (one organization per deployment, or per tenant in fleet mode) without keeping a generated id.
   */
  async ensure(
    id: string,
    input: { name: string; gatewayUrl?: string | undefined; billingTenantId?: string | undefined },
  ): Promise<{ org: Org; created: boolean }> {
    const hostname = input.gatewayUrl ? new URL(input.gatewayUrl).hostname : null;
    const { rows } = await this.db.query<OrgRow & { created: boolean }>(
      `INSERT INTO ev_orgs (id, name, gateway_url, gateway_hostname, billing_tenant_id, created_at) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, gateway_url = COALESCE(EXCLUDED.gateway_url, ev_orgs.gateway_url),
         gateway_hostname = COALESCE(EXCLUDED.gateway_hostname, ev_orgs.gateway_hostname), billing_tenant_id = COALESCE(EXCLUDED.billing_tenant_id, ev_orgs.billing_tenant_id)
       RETURNING ${columns}, (xmax = 0) AS created`,
      [id, input.name, input.gatewayUrl ?? null, hostname, input.billingTenantId ?? null, new Date(this.clock.now())],
    );
    return { org: toOrg(rows[0]), created: rows[0].created };
  }

  async list(): Promise<Org[]> {
    return (await this.db.query<OrgRow>(`SELECT ${columns} FROM ev_orgs ORDER BY created_at, id`)).rows.map(toOrg);
  }

  async get(id: string): Promise<Org | null> {
    const { rows } = await this.db.query<OrgRow>(`SELECT ${columns} FROM ev_orgs WHERE id = $1`, [id]);
    return rows[0] ? toOrg(rows[0]) : null;
  }

  /** Deleting the organization cascades to its credentials, hosts, results and switches. */
  async delete(id: string): Promise<boolean> {
    return (await this.db.query('DELETE FROM ev_orgs WHERE id = $1', [id])).rowCount > 0;
  }

  async disabledPolicies(orgId: string): Promise<Set<string>> {
    const { rows } = await this.db.query<{ policy_name: string }>(
      'SELECT policy_name FROM ev_policy_disabled WHERE org_id = $1',
      [orgId],
    );
    return new Set(rows.map((row) => row.policy_name));
  }

  async setPolicyEnabled(orgId: string, policyName: string, enabled: boolean): Promise<void> {
    if (enabled)
      await this.db.query('DELETE FROM ev_policy_disabled WHERE org_id = $1 AND policy_name = $2', [orgId, policyName]);
    else
      await this.db.query(
        'INSERT INTO ev_policy_disabled (org_id, policy_name) VALUES ($1, $2) ON CONFLICT DO NOTHING',
        [orgId, policyName],
      );
  }

  /** Checks whose failing result queues their script by itself (automatic remediation), by name. */
  async autoRemediated(orgId: string): Promise<Set<string>> {
    const { rows } = await this.db.query<{ policy_name: string }>(
      'SELECT policy_name FROM ev_policy_automation WHERE org_id = $1',
      [orgId],
    );
    return new Set(rows.map((row) => row.policy_name));
  }

  async setAutoRemediate(orgId: string, policyName: string, on: boolean): Promise<void> {
    if (!on)
      await this.db.query('DELETE FROM ev_policy_automation WHERE org_id = $1 AND policy_name = $2', [
        orgId,
        policyName,
      ]);
    else
      await this.db.query(
        'INSERT INTO ev_policy_automation (org_id, policy_name, updated_at) VALUES ($1, $2, $3) ON CONFLICT (org_id, policy_name) DO UPDATE SET updated_at = EXCLUDED.updated_at',
        [orgId, policyName, new Date(this.clock.now())],
      );
  }
}
