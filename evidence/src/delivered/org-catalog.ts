import type { DeliveredCheckPayload } from '@gw/contracts';
import type { DeliveredCheckTrust } from '@gw/platform';
import { policyPack, type PackPolicy } from '../catalog/policy-pack.js';
import { screenDeliveredCheck } from './delivered-check-screen.js';
import type { DeliveredCheckStore, StoredDeliveredCheck } from './delivered-check.store.js';

/** One organization's catalog as agents, reports and remediation see it. */
export interface OrgCatalogView {
  /** The image's checks, those replaced by an active delivered check swapped for it, then the new delivered checks. */
  checks: PackPolicy[];
  /** Names of image checks an active delivered check replaces: their remediation is suspended meanwhile. */
  suspended: ReadonlySet<string>;
  /** Every delivered check held, active or not, with whether it still verifies. */
  delivered: Array<StoredDeliveredCheck & { payload: DeliveredCheckPayload | null; replaces: string | null }>;
}

const imageNames = new Set(policyPack.map((policy) => policy.name));

/** A delivered check in the catalog's shape: no script, never critical. */
const asPolicy = (payload: DeliveredCheckPayload): PackPolicy => ({
  name: payload.name,
  platform: payload.platform,
  critical: false,
  description: payload.description,
  resolution: payload.resolution,
  query: payload.query,
});

/**
 * The image pack joined with an organization's delivered checks. Every stored envelope is verified again against the
 * pinned keys on every read: a row edited or written into the store by hand is not a check.
 */
export class OrgCatalog {
  constructor(
    private readonly store: DeliveredCheckStore,
    private readonly trust: DeliveredCheckTrust,
  ) {}

  async view(orgId: string): Promise<OrgCatalogView> {
    const delivered = (await this.store.list(orgId)).map((check) => {
      const screened = screenDeliveredCheck(check.envelope, this.trust);
      const payload = screened.ok && screened.payload.id === check.checkId ? screened.payload : null;
      return { ...check, payload, replaces: payload && imageNames.has(payload.name) ? payload.name : null };
    });
    const active = new Map<string, DeliveredCheckPayload>();
    for (const check of delivered) if (check.payload && !check.disabled) active.set(check.payload.name, check.payload);
    const checks = policyPack.map((policy) => {
      const replacement = active.get(policy.name);
      return replacement ? asPolicy(replacement) : policy;
    });
    for (const payload of active.values()) if (!imageNames.has(payload.name)) checks.push(asPolicy(payload));
    const suspended = new Set([...active.keys()].filter((name) => imageNames.has(name)));
    return { checks, suspended, delivered };
  }

  async find(orgId: string, name: string): Promise<PackPolicy | undefined> {
    return (await this.view(orgId)).checks.find((policy) => policy.name === name);
  }
}
