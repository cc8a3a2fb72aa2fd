import { createHash } from 'node:crypto';
import { cliSsoPollResponse, type CliSsoPollResponse } from '@gw/contracts';
import { describeIssue } from './json-body.js';

/** What the organization's directory says about one developer (the simulator's stand-in for the customer's IdP and SCIM). */
export interface CliDirectoryEntry {
  teams: string[];
  /** Default none (`defaultTeam: null` in the poll answer). */
  defaultTeam?: string;
  /** Default `developer`. */
  role?: string;
  /** The IdP subject; default `sub_` + a hash of the email. */
  subject?: string;
}

/** Who a browser sign-in proved, as a test states it to `approveCliLogin`. */
export interface CliLoginIdentity extends CliDirectoryEntry {
  email: string;
  /** Default the simulator's `cliKeyLifetimeHours`. */
  keyLifetimeHours?: number;
}

/** The reasons a browser step or a test can deny a login; `expired` comes from the clock alone. */
export type CliDenialReason = 'access_denied' | 'no_company' | 'revoked';

export type CliVerifiedAnswer = Extract<CliSsoPollResponse, { status: 'verified' }>;

/** Emails are matched without regard to case or surrounding space, as IdPs do. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** The poll answer for a verified developer, checked against the contract so a bad identity fails where it was set. */
export function verifiedAnswer(identity: CliLoginIdentity, defaultLifetimeHours: number): CliVerifiedAnswer {
  const email = normalizeEmail(identity.email);
  const parsed = cliSsoPollResponse.safeParse({
    status: 'verified',
    identity: {
      subject: identity.subject ?? `sub_${createHash('sha256').update(email).digest('hex').slice(0, 24)}`,
      email,
    },
    teams: [...identity.teams],
    defaultTeam: identity.defaultTeam ?? null,
    role: identity.role ?? 'developer',
    keyLifetimeHours: identity.keyLifetimeHours ?? defaultLifetimeHours,
  });
  if (!parsed.success) throw new Error(`invalid CLI login identity: ${describeIssue(parsed.error.issues[0])}`);
  if (parsed.data.status !== 'verified') throw new Error('a verified answer did not parse as verified');
  return parsed.data;
}
