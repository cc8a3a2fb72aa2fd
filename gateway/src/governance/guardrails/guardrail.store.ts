import { isoTimestamp } from '@gw/platform';
import type { Clock, Coord, Db, Keyring, Logger } from '@gw/platform';
import { SnapshotStore } from '../../shared/replicated-snapshot.js';
import type { GuardrailHookInput, StoredGuardrailHook } from './guardrail.schema.js';

interface StoredGuardrails {
  hooks: StoredGuardrailHook[];
  updatedAt: string | null;
}

const documentName = 'guardrails';

/**
 * The configured guardrail hooks: one settings document, read on the request path from each replica's cached copy,
 * written by an administrator and broadcast to every replica. Bearers are sealed under the keystore key.
 */
export class GuardrailStore extends SnapshotStore<StoredGuardrails> {
  constructor(
    private readonly db: Db,
    coord: Coord,
    private readonly clock: Clock,
    private readonly keyring: Keyring,
    logger: Logger,
  ) {
    super({
      channel: 'guardrails',
      initial: { hooks: [], updatedAt: null },
      coord,
      clock,
      logger,
    });
  }

  protected loadSnapshot(): Promise<StoredGuardrails> {
    return this.read();
  }

  /** The cached hooks; never a store round trip. */
  hooks(): readonly StoredGuardrailHook[] {
    return this.snapshot.current.hooks;
  }

  async read(): Promise<StoredGuardrails> {
    const { rows } = await this.db.query<{ document: { hooks?: StoredGuardrailHook[] }; updated_at: Date | string }>(
      'SELECT document, updated_at FROM gw_settings WHERE name = $1',
      [documentName],
    );
    const row = rows[0];
    return row
      ? { hooks: row.document.hooks ?? [], updatedAt: isoTimestamp(row.updated_at) }
      : { hooks: [], updatedAt: null };
  }

  /** Replace the hook list; a hook keeps its bearer when the write leaves it out (matched by name). */
  async replace(hooks: readonly GuardrailHookInput[], updatedBy: string): Promise<StoredGuardrails> {
    const previous = new Map((await this.read()).hooks.map((hook) => [hook.name, hook]));
    const stored: StoredGuardrailHook[] = hooks.map((hook) => {
      const sealedBearer =
        hook.bearer === undefined
          ? (previous.get(hook.name)?.sealedBearer ?? null)
          : hook.bearer === null
            ? null
            : this.keyring.encrypt(hook.bearer, `guardrail:${hook.name}`);
      return {
        name: hook.name,
        url: hook.url,
        timeoutMs: hook.timeoutMs,
        failMode: hook.failMode,
        sendContent: hook.sendContent,
        ...(hook.endpoints ? { endpoints: hook.endpoints } : {}),
        hasBearer: sealedBearer !== null,
        sealedBearer,
      };
    });
    await this.db.query(
      `INSERT INTO gw_settings (name, document, revision, updated_by, updated_at) VALUES ($1, $2::jsonb, 1, $3, $4)
       ON CONFLICT (name) DO UPDATE SET document = EXCLUDED.document, revision = gw_settings.revision + 1, updated_by = EXCLUDED.updated_by, updated_at = EXCLUDED.updated_at`,
      [documentName, JSON.stringify({ hooks: stored }), updatedBy, new Date(this.clock.now())],
    );
    await this.snapshot.changed();
    return this.snapshot.current;
  }

  bearerOf(hook: StoredGuardrailHook): string | null {
    return hook.sealedBearer ? this.keyring.decryptString(hook.sealedBearer, `guardrail:${hook.name}`) : null;
  }
}
