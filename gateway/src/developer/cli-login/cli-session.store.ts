import { randomInt } from 'node:crypto';
import { hmacSha256Hex, randomToken, timingSafeEqualString, type Clock, type Coord } from '@gw/platform';

/** A CLI login session lives ten minutes. */
export const cliSessionTtlMs = 10 * 60_000;

// Consonants only: a code read aloud or typed from a phone never spells a word or mixes up 0/O and 1/I.
const userCodeAlphabet = 'BCDFGHJKLMNPQRSTVWXZ';

interface StoredSession {
  userCode: string;
  salt: string;
  secretHash: string;
  expiresAt: number;
}

export interface OpenedSession {
  id: string;
  userCode: string;
  /** Returned to the CLI once; only a salted hash is kept. */
  pollSecret: string;
  expiresAt: number;
}

function userCode(): string {
  const letter = () => userCodeAlphabet[randomInt(userCodeAlphabet.length)];
  return `${Array.from({ length: 4 }, letter).join('')}-${Array.from({ length: 4 }, letter).join('')}`;
}

/**
 * CLI login sessions in Coord (every replica sees them; they expire on their own): the poll secret is stored only as
 * an HMAC under a per-session salt, and a session mints at most one key, whichever replica the poll
 * that completes it reaches.
 */
export class CliSessionStore {
  constructor(
    private readonly coord: Coord,
    private readonly clock: Clock,
  ) {}

  async open(): Promise<OpenedSession> {
    const session = {
      id: `cli_${randomToken(24)}`,
      userCode: userCode(),
      pollSecret: randomToken(32),
      expiresAt: this.clock.now() + cliSessionTtlMs,
    };
    const salt = randomToken(16);
    const stored: StoredSession = {
      userCode: session.userCode,
      salt,
      secretHash: hmacSha256Hex(salt, session.pollSecret),
      expiresAt: session.expiresAt,
    };
    await this.coord.setValue(this.key(session.id), JSON.stringify(stored), cliSessionTtlMs);
    return session;
  }

  /** The session, if it exists, is live and the secret is its own; null otherwise, with no hint which. */
  async verify(id: string, pollSecret: string): Promise<{ expiresAt: number } | null> {
    const raw = await this.coord.getValue(this.key(id));
    if (raw === null) return null;
    const stored = JSON.parse(raw) as StoredSession;
    if (stored.expiresAt <= this.clock.now()) return null;
    return timingSafeEqualString(hmacSha256Hex(stored.salt, pollSecret), stored.secretHash)
      ? { expiresAt: stored.expiresAt }
      : null;
  }

  /** True for exactly one caller per session: the one that mints its key. */
  claimMint(id: string): Promise<boolean> {
    return this.coord.setIfAbsent(`${this.key(id)}:minted`, '1', cliSessionTtlMs);
  }

  async close(id: string): Promise<void> {
    await this.coord.delete(this.key(id));
  }

  private key(id: string): string {
    return `cli-login:${id}`;
  }
}
