import type { OrgHubIdentityRequest, OrgHubIdentityResponse, OrgHubRefusal } from '@gw/contracts';

/** One organization member as billing's directory knows them; the flags stand for the conditions the contract lists. */
export interface OrgHubMember {
  email: string;
  team: string;
  /** Default true: the member signed in through the organization's SSO at least once. */
  ssoActivated?: boolean;
  /** Default true: the organization's identity-provider connection is active. */
  activeConnection?: boolean;
  /** Active memberships in the configured organization; default 1 (anything else is refused). */
  memberships?: number;
  revoked?: boolean;
}

export type OrgHubVerdict =
  | { kind: 'active'; answer: OrgHubIdentityResponse }
  | { kind: 'unconfirmed' }
  | { kind: 'refused'; refusal: OrgHubRefusal };

/**
 * Billing's side of the organization hub: which organization and resource indicator an operator confirmed for the
 * deployment, who is a member, and which e-mail domains are allowed. Nothing here ever sees an access token.
 */
export class OrgHubDirectory {
  #confirmed: { organizationId: string; resource: string } | null = null;
  #allowedDomains: readonly string[] | null = null;
  readonly #members = new Map<string, OrgHubMember>();
  /** Every lookup the gateway made, as billing received it. */
  readonly lookups: OrgHubIdentityRequest[] = [];

  /** What an operator confirms in billing's console; a rebind or URL change needs confirming again. */
  confirm(organizationId: string, resource: string): void {
    this.#confirmed = { organizationId, resource };
  }

  unconfirm(): void {
    this.#confirmed = null;
  }

  setMember(subject: string, member: OrgHubMember): void {
    this.#members.set(subject, member);
  }

  removeMember(subject: string): void {
    this.#members.delete(subject);
  }

  /** Null allows every domain. */
  setAllowedDomains(domains: readonly string[] | null): void {
    this.#allowedDomains = domains === null ? null : domains.map((domain) => domain.toLowerCase());
  }

  verdict(request: OrgHubIdentityRequest): OrgHubVerdict {
    this.lookups.push(request);
    if (!this.#confirmed || this.#confirmed.resource !== request.resource) return { kind: 'unconfirmed' };
    const member = this.#members.get(request.subject);
    if (!member || request.organizationId !== this.#confirmed.organizationId || (member.memberships ?? 1) !== 1)
      return { kind: 'refused', refusal: 'membership_not_unique' };
    if (member.ssoActivated === false) return { kind: 'refused', refusal: 'sso_not_activated' };
    if (member.activeConnection === false) return { kind: 'refused', refusal: 'no_active_connection' };
    if (member.revoked) return { kind: 'refused', refusal: 'member_revoked' };
    const domain = member.email.slice(member.email.lastIndexOf('@') + 1).toLowerCase();
    if (this.#allowedDomains && !this.#allowedDomains.includes(domain))
      return { kind: 'refused', refusal: 'domain_not_allowed' };
    return { kind: 'active', answer: { status: 'active', email: member.email, team: member.team } };
  }
}
