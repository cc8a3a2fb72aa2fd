import { randomToken, sha256Hex, type Clock, type Db } from '@gw/platform';

/** A stored console session; the cookie holds the token, the store only its hash. */
export interface ConsoleSession {
  idHash: string;
  deployment: string;
  userName: string;
  subject: string;
  issuer: string;
  csrfHash: string;
  createdAt: number;
  lastSeenAt: number;
  expiresAt: number;
  revokedAt: number | null;
}

export interface MintedSession {
  token: string;
  csrfToken: string;
  session: ConsoleSession;
}

interface SessionRow {
  id_hash: string;
  deployment: string;
  user_name: string;
  subject: string;
  issuer: string;
  csrf_hash: string;
  created_at: Date | string;
  last_seen_at: Date | string;
  expires_at: Date | string;
  revoked_at: Date | string | null;
}

const time = (value: Date | string) => new Date(value).getTime();
// Last-seen is written at most this often: a console polling every second costs no write per request.
const touchEveryMs = 60_000;
// Ended sessions are kept this long (a sign-out is still answerable), then purged at the next sign-in.
const keepEndedMs = 30 * 24 * 3_600_000;

function toSession(row: SessionRow): ConsoleSession {
  return {
    idHash: row.id_hash,
    deployment: row.deployment,
    userName: row.user_name,
    subject: row.subject,
    issuer: row.issuer,
    csrfHash: row.csrf_hash,
    createdAt: time(row.created_at),
    lastSeenAt: time(row.last_seen_at),
    expiresAt: time(row.expires_at),
    revokedAt: row.revoked_at === null ? null : time(row.revoked_at),
  };
}

/** Console sessions in the durable store: revocation is one row update, seen by every replica on the next request. */
export class ConsoleSessionStore {
  private binding: Promise<string> | null = null;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  /** This deployment's cookie-binding secret, made on first use and shared by every replica through the store. */
  bindingSecret(): Promise<string> {
    this.binding ??= (async () => {
      await this.db.query(
        'INSERT INTO gw_console_binding (id, secret, created_at) VALUES (1, $1, $2) ON CONFLICT (id) DO NOTHING',
        [randomToken(32), new Date(this.clock.now())],
      );
      const { rows } = await this.db.query<{ secret: string }>('SELECT secret FROM gw_console_binding WHERE id = 1');
      return rows[0].secret;
    })().catch((error: unknown) => {
      this.binding = null;
      throw error;
    });
    return this.binding;
  }

  async create(input: {
    deployment: string;
    userName: string;
    subject: string;
    issuer: string;
    maxAgeMs: number;
  }): Promise<MintedSession> {
    const token = randomToken(32);
    const csrfToken = randomToken(32);
    const now = this.clock.now();
    const session: ConsoleSession = {
      idHash: sha256Hex(token),
      deployment: input.deployment,
      userName: input.userName,
      subject: input.subject,
      issuer: input.issuer,
      csrfHash: sha256Hex(csrfToken),
      createdAt: now,
      lastSeenAt: now,
      expiresAt: now + input.maxAgeMs,
      revokedAt: null,
    };
    await this.db.query('DELETE FROM gw_console_sessions WHERE expires_at < $1', [new Date(now - keepEndedMs)]);
    await this.db.query(
      `INSERT INTO gw_console_sessions (id_hash, deployment, user_name, subject, issuer, csrf_hash, created_at, last_seen_at, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $7, $8)`,
      [
        session.idHash,
        session.deployment,
        session.userName,
        session.subject,
        session.issuer,
        session.csrfHash,
        new Date(now),
        new Date(session.expiresAt),
      ],
    );
    return { token, csrfToken, session };
  }

  async find(token: string): Promise<ConsoleSession | null> {
    const { rows } = await this.db.query<SessionRow>(
      `SELECT id_hash, deployment, user_name, subject, issuer, csrf_hash, created_at, last_seen_at, expires_at, revoked_at
         FROM gw_console_sessions WHERE id_hash = $1`,
      [sha256Hex(token)],
    );
    return rows[0] ? toSession(rows[0]) : null;
  }

  /** Record use (at most once a minute), which pushes the idle timeout back. */
  async touch(session: ConsoleSession): Promise<void> {
    const now = this.clock.now();
    if (now - session.lastSeenAt < touchEveryMs) return;
    await this.db.query('UPDATE gw_console_sessions SET last_seen_at = $2 WHERE id_hash = $1 AND revoked_at IS NULL', [
      session.idHash,
      new Date(now),
    ]);
  }

  /** End one session; true when it was live. */
  async revoke(idHash: string, reason: string): Promise<boolean> {
    const { rowCount } = await this.db.query(
      'UPDATE gw_console_sessions SET revoked_at = $2, revoked_reason = $3 WHERE id_hash = $1 AND revoked_at IS NULL',
      [idHash, new Date(this.clock.now()), reason],
    );
    return rowCount > 0;
  }

  /** End every live session (the identity provider was removed or replaced); the count ended. */
  async revokeAll(reason: string): Promise<number> {
    const { rowCount } = await this.db.query(
      'UPDATE gw_console_sessions SET revoked_at = $1, revoked_reason = $2 WHERE revoked_at IS NULL AND expires_at > $1',
      [new Date(this.clock.now()), reason],
    );
    return rowCount;
  }
}
