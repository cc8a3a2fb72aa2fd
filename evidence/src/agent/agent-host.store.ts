import { randomToken, sha256Hex, type Clock, type Db } from '@gw/platform';
import { deviceHashOf } from '../hosts/host.store.js';
import { evidenceError } from '../errors.js';
import type { HostPlatform } from './agent-platform.js';

/** The evidence source of hosts enrolled through the built-in agent: the only hosts a script may run on. */
export const builtInAgentSource = 'agent';

export type AgentKind = 'osquery' | 'orbit';

export interface AgentHost {
  hostId: string;
  orgId: string;
  platform: string;
}

export interface AgentEnrollment {
  orgId: string;
  kind: AgentKind;
  hardwareUuid: string;
  osqueryUuid?: string | undefined;
  hostname?: string | undefined;
  platform: HostPlatform;
}

// Hostnames up to 64 characters. The agent's wire is fixed, so a longer one is cut, never refused.
const maxHostnameLength = 64;

/**
 * Hosts enrolled by the built-in agent and their node keys: one host per hardware UUID and
 * organization, whichever of osquery and orbit enrolls first; only hashes of the UUIDs and of the node keys are kept.
 */
export class AgentHostStore {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  /** Enroll (or re-enroll) one agent of a host: the host is created or refreshed, the agent's previous node key dies. */
  async enroll(input: AgentEnrollment): Promise<{ hostId: string; nodeKey: string }> {
    const nodeKey = randomToken(32);
    const at = new Date(this.clock.now());
    const hostname = input.hostname?.trim().slice(0, maxHostnameLength) || null;
    const hostId = await this.db.transaction(async (tx) => {
      const { rows } = await tx.query<{ id: string }>(
        `INSERT INTO ev_hosts (id, org_id, device_hash, hostname, platform, source, last_evidence_at, created_at, hardware_hash, osquery_hash)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $7, $8, $9)
         ON CONFLICT (org_id, device_hash) DO UPDATE SET hostname = COALESCE(EXCLUDED.hostname, ev_hosts.hostname),
           platform = CASE WHEN EXCLUDED.platform = 'unknown' THEN ev_hosts.platform ELSE EXCLUDED.platform END,
           osquery_hash = COALESCE(EXCLUDED.osquery_hash, ev_hosts.osquery_hash), last_evidence_at = EXCLUDED.last_evidence_at
         RETURNING id`,
        [
          `host_${randomToken(12)}`,
          input.orgId,
          deviceHashOf(builtInAgentSource, input.hardwareUuid),
          hostname,
          input.platform,
          builtInAgentSource,
          at,
          sha256Hex(input.hardwareUuid),
          input.osqueryUuid ? sha256Hex(input.osqueryUuid) : null,
        ],
      );
      const id = rows[0].id;
      await tx.query('DELETE FROM ev_node_keys WHERE host_id = $1 AND kind = $2', [id, input.kind]);
      await tx.query('INSERT INTO ev_node_keys (hash, host_id, kind, created_at) VALUES ($1, $2, $3, $4)', [
        sha256Hex(nodeKey),
        id,
        input.kind,
        at,
      ]);
      return id;
    });
    return { hostId, nodeKey };
  }

  /** The host a node key of `kind` stands for, or `node_invalid` (the agent enrolls again). */
  async authenticate(nodeKey: string, kind: AgentKind): Promise<AgentHost> {
    const host = await this.resolve(nodeKey, kind);
    if (!host) throw evidenceError('node_invalid');
    return host;
  }

  /** The host a node key of `kind` stands for; null for an unknown, replaced or deleted host's key. */
  async resolve(nodeKey: string, kind: AgentKind): Promise<AgentHost | null> {
    const { rows } = await this.db.query<{ host_id: string; org_id: string; platform: string }>(
      'SELECT h.id AS host_id, h.org_id, h.platform FROM ev_node_keys k JOIN ev_hosts h ON h.id = k.host_id WHERE k.hash = $1 AND k.kind = $2',
      [sha256Hex(nodeKey), kind],
    );
    return rows[0] ? { hostId: rows[0].host_id, orgId: rows[0].org_id, platform: rows[0].platform } : null;
  }

  /** Whether the policy queries are due: never answered, asked again after a remediation, or older than `intervalMs`. */
  async policiesDue(hostId: string, intervalMs: number): Promise<boolean> {
    const { rows } = await this.db.query<{ checked: Date | string | null }>(
      'SELECT policies_checked_at AS checked FROM ev_hosts WHERE id = $1',
      [hostId],
    );
    const checked = rows[0]?.checked;
    return checked === null || checked === undefined || this.clock.now() - new Date(checked).getTime() >= intervalMs;
  }

  /** Record the answered policy queries (pass, fail or null) and the host's evidence time. */
  async recordPolicyResults(
    hostId: string,
    results: ReadonlyArray<{ policyName: string; passing: boolean | null }>,
  ): Promise<void> {
    const at = new Date(this.clock.now());
    await this.db.transaction(async (tx) => {
      await tx.query('UPDATE ev_hosts SET last_evidence_at = $2, policies_checked_at = $2 WHERE id = $1', [hostId, at]);
      if (results.length === 0) return;
      await tx.query(
        `INSERT INTO ev_policy_results (host_id, policy_name, passing, updated_at)
         SELECT $1, name, passing, $4 FROM unnest($2::text[], $3::boolean[]) AS answered (name, passing)
         ON CONFLICT (host_id, policy_name) DO UPDATE SET passing = EXCLUDED.passing, updated_at = EXCLUDED.updated_at`,
        [hostId, results.map((result) => result.policyName), results.map((result) => result.passing), at],
      );
    });
  }

  /** Ask for the policies again at the next check-in (a remediation just ran). */
  async markPoliciesStale(hostId: string): Promise<void> {
    await this.db.query('UPDATE ev_hosts SET policies_checked_at = NULL WHERE id = $1', [hostId]);
  }

  /** The device token orbit hands fleet desktop, as a hash; false when another host already holds the same token. */
  async setDeviceToken(hostId: string, token: string): Promise<boolean> {
    const hash = sha256Hex(token);
    return this.db.transaction(async (tx) => {
      const { rows } = await tx.query<{ host_id: string }>(
        'SELECT host_id FROM ev_device_tokens WHERE token_hash = $1',
        [hash],
      );
      if (rows[0] && rows[0].host_id !== hostId) return false;
      await tx.query(
        `INSERT INTO ev_device_tokens (host_id, token_hash, updated_at) VALUES ($1, $2, $3)
         ON CONFLICT (host_id) DO UPDATE SET token_hash = EXCLUDED.token_hash, updated_at = EXCLUDED.updated_at`,
        [hostId, hash, new Date(this.clock.now())],
      );
      return true;
    });
  }
}
