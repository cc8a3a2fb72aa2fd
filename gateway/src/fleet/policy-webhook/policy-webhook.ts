import { sha256Hex, timingSafeEqualString, type Coord, type Logger } from '@gw/platform';
import type { EndpointDeps } from '../endpoint-deps.js';
import type { FailingPoliciesPayload, WebhookCounts } from './failing-policies.schema.js';
import { readWebhookConfig, type WebhookConfig } from './webhook-config.js';
import { gatewayError } from '../../errors.js';

export interface PolicyWebhookDeps {
  /** `GW_FLEET_WEBHOOK_CONFIG`. */
  configPath: string | undefined;
  /** Where remediation runs; null when `GW_ENDPOINT_CONTROL_URL` is unset. */
  endpoint: EndpointDeps | null;
  /** Shares the per-host cooldown between replicas. */
  coord: Coord;
  logger: Logger;
}

export const policyWebhookErrors = {
  // One static answer whatever is missing: the caller is a server, not the operator who can fix the file.
  unavailable: () => gatewayError('fleet_webhook_unavailable'),
  unauthorized: () => gatewayError('fleet_webhook_unauthorized'),
};

/** What a delivery may act with, once configuration and secret checked out. */
export interface ReadyWebhook {
  config: WebhookConfig;
  endpoint: EndpointDeps;
}

// Queue remediations a few at a time: a batch of a thousand hosts must not open a thousand connections at once.
const remediationConcurrency = 8;

/**
 * The receiver of a Fleet server's failing-policies webhook. A mapped policy queues the mapped evidence check's
 * script on each failing host the evidence service knows by hostname, at most once per host and check per cooldown
 * (claimed in Coord before the call, released again when the call failed so the next delivery retries).
 */
export class PolicyWebhookReceiver {
  constructor(private readonly deps: PolicyWebhookDeps) {}

  /** The configuration and the evidence service, or the 503 that says remediation cannot run. */
  async ready(): Promise<ReadyWebhook> {
    const state = await readWebhookConfig(this.deps.configPath);
    if (state.kind === 'unreadable')
      this.deps.logger.warn({ reason: state.reason }, 'failing-policies webhook: configuration file unreadable');
    if (state.kind !== 'ready' || !this.deps.endpoint) throw policyWebhookErrors.unavailable();
    return { config: state.config, endpoint: this.deps.endpoint };
  }

  /** Compares in constant time; an absent secret fails like a wrong one. */
  verify(config: WebhookConfig, presented: string | null): void {
    if (presented === null || !timingSafeEqualString(sha256Hex(presented), sha256Hex(config.secret)))
      throw policyWebhookErrors.unauthorized();
  }

  async deliver({ config, endpoint }: ReadyWebhook, payload: FailingPoliciesPayload): Promise<WebhookCounts> {
    const counts: WebhookCounts = {
      status: 'ok',
      received: payload.hosts.length,
      mapped: false,
      remediated: 0,
      coolingDown: 0,
      unmatched: 0,
      refused: 0,
      failed: 0,
    };
    const check = config.policies[payload.policy.name] ?? config.policies[String(payload.policy.id)];
    if (check === undefined || payload.hosts.length === 0) return { ...counts, mapped: check !== undefined };
    counts.mapped = true;
    const orgId = await endpoint.orgs.bind(null).catch(() => null);
    const known = orgId === null ? null : await this.knownHosts(endpoint, orgId);
    if (orgId === null || known === null) return { ...counts, failed: payload.hosts.length };
    const queue = [...payload.hosts];
    const worker = async () => {
      for (let host = queue.shift(); host !== undefined; host = queue.shift()) {
        const hostId = known.get(host.hostname.toLowerCase());
        if (hostId === undefined) counts.unmatched += 1;
        else counts[await this.remediate(endpoint, orgId, hostId, check, config.cooldownSeconds)] += 1;
      }
    };
    await Promise.all(Array.from({ length: Math.min(remediationConcurrency, queue.length) }, worker));
    return counts;
  }

  /** The evidence service's hosts by lower-cased hostname; null when it does not answer. */
  private async knownHosts(endpoint: EndpointDeps, orgId: string): Promise<Map<string, string> | null> {
    const answer = await endpoint.client.request('GET', `/admin/orgs/${orgId}/hosts`).catch(() => null);
    const hosts = (answer?.body as { hosts?: Array<{ id?: unknown; hostname?: unknown }> } | null)?.hosts;
    if (answer?.status !== 200 || !Array.isArray(hosts)) return null;
    const byName = new Map<string, string>();
    for (const host of hosts)
      if (typeof host.id === 'string' && typeof host.hostname === 'string')
        byName.set(host.hostname.toLowerCase(), host.id);
    return byName;
  }

  private async remediate(
    endpoint: EndpointDeps,
    orgId: string,
    hostId: string,
    check: string,
    cooldownSeconds: number,
  ): Promise<'remediated' | 'coolingDown' | 'refused' | 'failed'> {
    const cooldownKey = `fleet-webhook:cooldown:${sha256Hex(`${orgId}|${hostId}|${check}`)}`;
    const claimed = await this.deps.coord.setIfAbsent(cooldownKey, '1', cooldownSeconds * 1000).catch(() => null);
    if (claimed === null) return 'failed';
    if (!claimed) return 'coolingDown';
    const answer = await endpoint.client
      .request('POST', `/admin/orgs/${orgId}/hosts/${encodeURIComponent(hostId)}/remediate`, { policyName: check })
      .catch(() => null);
    if (answer && (answer.status === 200 || answer.status === 202)) return 'remediated';
    // A refusal (409: customer-managed host, disabled check, other platform) would be refused again: keep the cooldown.
    if (answer?.status === 409 || answer?.status === 404) return 'refused';
    await this.deps.coord.delete(cooldownKey).catch(() => undefined);
    return 'failed';
  }
}
