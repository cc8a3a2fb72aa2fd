import type { CliSsoPollResponse, CliSsoStartRequest } from '@gw/contracts';
import { timingSafeEqualString } from '@gw/platform';
import type { CliDenialReason, CliVerifiedAnswer } from './cli-identity.js';

/** A started CLI login as the gateway announced it (`POST /v1/cli-sso/start`). */
export interface CliSession {
  readonly sessionId: string;
  readonly userCode: string;
  readonly expiresAt: string;
}

export type CliOutcome = { status: 'pending' } | { status: 'denied'; reason: CliDenialReason } | CliVerifiedAnswer;

/** Where a session stands for the browser: only a live, pending one takes a code. */
export type CliSessionState = 'missing' | 'expired' | 'pending' | 'settled';

export type CodeCheck = 'match' | 'wrong' | 'locked';

/** Wrong user codes a session survives before it is denied, so the eight-letter code cannot be guessed. */
export const MAX_WRONG_CODES = 5;

interface Entry {
  readonly expiresAtMs: number;
  readonly userCode: string;
  outcome: CliOutcome;
  wrongCodes: number;
}

/** Billing's side of CLI logins: what the gateway started, and what the browser step (or a test) decided. */
export class CliSessions {
  readonly started: CliSession[] = [];
  readonly #entries = new Map<string, Entry>();

  /** False when the session id was started before: the gateway mints ids, a repeat is its bug or a replay. */
  start(request: CliSsoStartRequest): boolean {
    if (this.#entries.has(request.sessionId)) return false;
    this.#entries.set(request.sessionId, {
      expiresAtMs: Date.parse(request.expiresAt),
      userCode: request.userCode,
      outcome: { status: 'pending' },
      wrongCodes: 0,
    });
    this.started.push({ sessionId: request.sessionId, userCode: request.userCode, expiresAt: request.expiresAt });
    return true;
  }

  /** The poll answer, or undefined for a session never started. Expiry wins over any decision: the gateway has forgotten it. */
  answer(sessionId: string, now: number): CliSsoPollResponse | undefined {
    const entry = this.#entries.get(sessionId);
    if (entry === undefined) return undefined;
    return now >= entry.expiresAtMs ? { status: 'denied', reason: 'expired' } : entry.outcome;
  }

  state(sessionId: string, now: number): CliSessionState {
    const entry = this.#entries.get(sessionId);
    if (entry === undefined) return 'missing';
    if (now >= entry.expiresAtMs) return 'expired';
    return entry.outcome.status === 'pending' ? 'pending' : 'settled';
  }

  /** Compares the typed code with the session's; the last allowed miss denies the session `access_denied`. */
  checkCode(sessionId: string, typed: string): CodeCheck {
    const entry = this.#require(sessionId);
    if (timingSafeEqualString(comparableCode(typed), comparableCode(entry.userCode))) return 'match';
    entry.wrongCodes += 1;
    if (entry.wrongCodes < MAX_WRONG_CODES) return 'wrong';
    entry.outcome = { status: 'denied', reason: 'access_denied' };
    return 'locked';
  }

  /** Records the decision, replacing any earlier one (tests may revoke a developer they approved). */
  settle(sessionId: string, outcome: Exclude<CliOutcome, { status: 'pending' }>): void {
    this.#require(sessionId).outcome = outcome;
  }

  #require(sessionId: string): Entry {
    const entry = this.#entries.get(sessionId);
    if (entry === undefined) throw new Error(`no CLI login session ${sessionId}`);
    return entry;
  }
}

/** Developers type codes in any case and often without the dash (`wdjbmjht` for `WDJB-MJHT`). */
function comparableCode(code: string): string {
  return code.replace(/[\s-]/g, '').toUpperCase();
}
