import { DecryptError, type Db, type Keyring } from '@gw/platform';
import type { StashEntry, StashOwner } from './stash-entry.js';

/** The durable store could not answer (down, timed out): distinct from a real miss. */
export class StoreUnavailableError extends Error {
  constructor(cause: unknown) {
    super('durable stash unavailable', { cause });
    this.name = 'StoreUnavailableError';
  }
}

/**
 * A row exists but its envelope does not open (wrong key, tampering): 503, not 404. Only ever thrown for
 * a row its reader may read: another caller's row is refused on its owner before decryption is tried.
 */
export class RowUnreadableError extends Error {
  constructor(readonly handle: string) {
    super('durable stash row unreadable');
    this.name = 'RowUnreadableError';
  }
}

/** Which rows a purge deletes: one user, one tenant, both, or (neither) every row. */
export interface StashPurgeFilter {
  tenant?: string;
  user?: string;
}

/** Whether the reader may have this owner's row; asked before the row is decrypted. */
export type OwnerCheck = (owner: StashOwner) => boolean;

interface StashRow {
  handle: string;
  tenant: string;
  user_id: string | null;
  team_id: string | null;
  created_at: Date | string;
  expires_at: Date | string;
  ceiling_at: Date | string;
  total_lines: number;
  total_chars: number;
  sealed: string;
}

const columns =
  'handle, tenant, user_id, team_id, created_at, expires_at, ceiling_at, total_lines, total_chars, sealed';

/**
 * Durable tier: AES-256-GCM rows under GW_CONTENT_KEY in Postgres or PGlite. The envelope's
 * associated data is the handle, so a row's ciphertext cannot be moved under another handle.
 */
export class DurableTier {
  constructor(
    readonly db: Db,
    private readonly keyring: Keyring,
  ) {}

  /** Insert or, for the same handle (same owner and content), restart its window. */
  async put(entry: StashEntry): Promise<void> {
    await this.db.query(
      `INSERT INTO optimizer_stash (${columns}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
       ON CONFLICT (handle) DO UPDATE SET created_at = EXCLUDED.created_at, expires_at = EXCLUDED.expires_at,
         ceiling_at = EXCLUDED.ceiling_at, sealed = EXCLUDED.sealed`,
      [
        entry.handle,
        entry.owner.tenant,
        entry.owner.user ?? null,
        entry.owner.team ?? null,
        new Date(entry.createdAt),
        new Date(entry.expiresAt),
        new Date(entry.ceilingAt),
        entry.totalLines,
        entry.totalChars,
        this.keyring.encrypt(entry.content, entry.handle),
      ],
    );
  }

  /**
   * The live row, or null when unknown, expired or refused by `mayRead`. The owner columns are plaintext, so a row
   * the reader may not have is never decrypted. Throws StoreUnavailableError or RowUnreadableError.
   */
  async get(handle: string, now: number, mayRead: OwnerCheck): Promise<StashEntry | null> {
    let rows: StashRow[];
    try {
      ({ rows } = await this.db.query<StashRow>(`SELECT ${columns} FROM optimizer_stash WHERE handle = $1`, [handle]));
    } catch (error) {
      throw new StoreUnavailableError(error);
    }
    const row = rows[0];
    if (!row || !mayRead(ownerOf(row))) return null;
    const entry = this.open(row);
    return entry.expiresAt <= now ? null : entry;
  }

  /** Push expiry forward to `expiresAt` (never backwards). */
  async extend(handle: string, expiresAt: number): Promise<void> {
    await this.db.query('UPDATE optimizer_stash SET expires_at = GREATEST(expires_at, $2) WHERE handle = $1', [
      handle,
      new Date(expiresAt),
    ]);
  }

  /** The user's own live rows, newest first, for recall. Rows that fail to open are skipped. */
  async listForUser(owner: { tenant: string; user: string }, now: number, limit: number): Promise<StashEntry[]> {
    const { rows } = await this.db.query<StashRow>(
      `SELECT ${columns} FROM optimizer_stash WHERE tenant = $1 AND user_id = $2 AND expires_at > $3 ORDER BY created_at DESC LIMIT $4`,
      [owner.tenant, owner.user, new Date(now), limit],
    );
    const entries: StashEntry[] = [];
    for (const row of rows) {
      try {
        entries.push(this.open(row));
      } catch {
        // An unreadable row (rotated-away key) must not hide the readable ones.
      }
    }
    return entries;
  }

  /** Delete the rows of one user, one tenant, or all (an empty filter); returns how many. */
  async purge(filter: StashPurgeFilter): Promise<number> {
    const clauses: string[] = [];
    const values: string[] = [];
    if (filter.tenant !== undefined) clauses.push(`tenant = $${values.push(filter.tenant)}`);
    if (filter.user !== undefined) clauses.push(`user_id = $${values.push(filter.user)}`);
    const where = clauses.length > 0 ? ` WHERE ${clauses.join(' AND ')}` : '';
    const { rowCount } = await this.db.query(`DELETE FROM optimizer_stash${where}`, values);
    return rowCount;
  }

  /** Delete rows past their expiry; returns how many. */
  async sweep(now: number): Promise<number> {
    const { rowCount } = await this.db.query('DELETE FROM optimizer_stash WHERE expires_at <= $1', [new Date(now)]);
    return rowCount;
  }

  private open(row: StashRow): StashEntry {
    let content: string;
    try {
      content = this.keyring.decryptString(row.sealed, row.handle);
    } catch (error) {
      if (error instanceof DecryptError) throw new RowUnreadableError(row.handle);
      throw error;
    }
    return {
      handle: row.handle,
      content,
      owner: ownerOf(row),
      createdAt: new Date(row.created_at).getTime(),
      expiresAt: new Date(row.expires_at).getTime(),
      ceilingAt: new Date(row.ceiling_at).getTime(),
      totalLines: Number(row.total_lines),
      totalChars: Number(row.total_chars),
    };
  }
}

/** A row's owner, from its plaintext columns (NULL: no user, no team). */
function ownerOf(row: StashRow): StashOwner {
  return {
    tenant: row.tenant,
    ...(row.user_id ? { user: row.user_id } : {}),
    ...(row.team_id ? { team: row.team_id } : {}),
  };
}
