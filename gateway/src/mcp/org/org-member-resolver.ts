import { orgHubRefusals } from '@gw/contracts';
import { sha256Hex, type Clock, type Coord, type Db } from '@gw/platform';
import { BillingCallFailed, type BillingClient } from '../../billing/billing-client.js';
import { isUserBlocked } from '../../identity/users/user-blocked.js';
import { orgHubErrors } from './org-hub-errors.js';
import type { OrgHubSettings } from './org-hub-settings.js';
import type { OrgTokenVerifier, VerifiedMember } from './org-token-verifier.js';

/** Who the hub serves: the member billing named, in their one governed team. */
export interface OrgMember {
  email: string;
  team: string;
}

export interface OrgMemberResolverDeps {
  settings: OrgHubSettings;
  verifier: OrgTokenVerifier;
  billing: BillingClient;
  coord: Coord;
  db: Db;
  clock: Clock;
}

// Pre-verification: an address gets this many token verifications a minute (a repeated token is answered from cache).
const verificationsPerMinute = 120;
// Live identity: one subject costs billing at most this many lookups a minute.
const lookupsPerMinute = 20;
// A member billing admitted is trusted this long before billing is asked again (revocation applies within it).
const memberCacheMs = 60_000;
const maxCachedEntries = 10_000;

/**
 * The hosted-identity lane of `/mcp/org`: verify the access token, then ask billing, with only the
 * subject, the organization id and this hub's URL, whether the subject is an admitted member. The token reaches
 * neither billing nor any store; only its hash keys an in-process cache that ends with the token.
 */
export class OrgMemberResolver {
  private readonly verified = new Map<string, VerifiedMember>();
  private readonly members = new Map<string, { member: OrgMember; until: number }>();

  constructor(private readonly deps: OrgMemberResolverDeps) {}

  async resolve(token: string, address: string): Promise<OrgMember> {
    const verified = await this.verifiedMember(token, address);
    const key = `${verified.organizationId}\u0000${verified.subject}`;
    const now = this.deps.clock.now();
    const cached = this.members.get(key);
    const member = cached && cached.until > now ? cached.member : await this.lookUp(verified);
    if (member !== cached?.member) remember(this.members, key, { member, until: now + memberCacheMs });
    // A revocation at this gateway (or SCIM deactivation) applies at once, as it does for client keys; only billing's
    // verdict is cached.
    if (await isUserBlocked(this.deps.db, member.email)) throw orgHubErrors.userDeactivated();
    return member;
  }

  private async verifiedMember(token: string, address: string): Promise<VerifiedMember> {
    const tokenKey = sha256Hex(token);
    const cached = this.verified.get(tokenKey);
    if (cached && cached.expiresAt * 1000 > this.deps.clock.now()) return cached;
    const decision = await this.deps.coord.rateLimit(`org-hub-verify:${address}`, verificationsPerMinute, 60_000);
    if (!decision.allowed) throw orgHubErrors.throttled(decision.retryAfterMs, 'token verifications from this address');
    const verified = await this.deps.verifier.verify(token);
    remember(this.verified, tokenKey, verified);
    return verified;
  }

  private async lookUp(verified: VerifiedMember): Promise<OrgMember> {
    const decision = await this.deps.coord.rateLimit(
      `org-hub-identity:${sha256Hex(verified.subject)}`,
      lookupsPerMinute,
      60_000,
    );
    if (!decision.allowed) throw orgHubErrors.throttled(decision.retryAfterMs, 'identity checks for this member');
    try {
      const answer = await this.deps.billing.orgHubIdentity({
        subject: verified.subject,
        organizationId: verified.organizationId,
        resource: this.deps.settings.resource,
      });
      return { email: answer.email, team: answer.team };
    } catch (error) {
      if (!(error instanceof BillingCallFailed)) throw error;
      if (error.httpStatus === 403)
        throw orgHubErrors.refused(orgHubRefusals.find((refusal) => refusal === error.code) ?? 'org_member_refused');
      if (error.code === 'org_hub_unconfirmed') throw orgHubErrors.unconfirmed();
      throw orgHubErrors.billingUnavailable();
    }
  }
}

/** A bounded map: the oldest entry goes first once it is full. */
function remember<Value>(map: Map<string, Value>, key: string, value: Value): void {
  map.delete(key);
  map.set(key, value);
  if (map.size > maxCachedEntries) map.delete(map.keys().next().value as string);
}
