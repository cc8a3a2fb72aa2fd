import type { DeliveredCheckPayload } from '@gw/contracts';
import type { DeliveredCheckTrust } from '@gw/platform';
import { policyPack, type PackPolicy } from '../catalog/policy-pack.js';
import { screenDeliveredCheck, type Screened } from './delivered-check-screen.js';
import type { DeliveredCheckStore, StoredDeliveredCheck } from './delivered-check.store.js';
import type { SignedDeliveredCheck } from '@gw/contracts';

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

// Screened envelopes remembered per process; far above any organization's delivered checks, so it never churns.
const maxRemembered = 10_000;

/**
 * The image pack joined with an organization's delivered checks. Every stored envelope is verified against the
 * pinned keys as it is read: a row edited or written into the store by hand is not a check. The verdict on one
 * envelope's exact bytes never changes (the pinned keys are fixed for the process), so it is remembered by those bytes
 * and an agent's check-in does not repeat the signature check of checks it has already seen; an edited row is other
 * bytes and is screened afresh.
 */
export class OrgCatalog {
  private readonly screened = new Map<string, Screened>();

  constructor(
    private readonly store: DeliveredCheckStore,
    private readonly trust: DeliveredCheckTrust,
  ) {}

  private screen(envelope: SignedDeliveredCheck): Screened {
    const bytes = `${envelope.keyId}\n${envelope.payload}\n${envelope.signature}`;
    let verdict = this.screened.get(bytes);
    if (!verdict) {
      if (this.screened.size >= maxRemembered) this.screened.clear();
      verdict = screenDeliveredCheck(envelope, this.trust);
      this.screened.set(bytes, verdict);
    }
    return verdict;
  }

  async view(orgId: string): Promise<OrgCatalogView> {
    const delivered = (await this.store.list(orgId)).map((check) => {
      const screened = this.screen(check.envelope);
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
