import {
  appendFileSync,
  closeSync,
  createReadStream,
  fdatasyncSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  renameSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Logger } from '@gw/platform';
import type { SpendRecord } from './spend-record.js';

const spillName = /^spend-[0-9a-z-]+\.ndjson$/;
const claimedName = /^spend-[0-9a-z-]+\.ndjson\.claimed$/;

/** The longest time an appended record waits for its fsync (the metering README states this bound). */
export const defaultSyncIntervalMs = 100;

/**
 * The spend writer's on-disk journal: when a write to the store fails, when the in-memory
 * buffer is full, or when the process stops while the store is down, records are appended as NDJSON to a file under
 * `GW_DATA_DIR/spend-spill/` and replayed into `gw_spend` once the store answers again, including after a restart.
 * Appends are synchronous writes, so a record that left memory survives the process being killed at once; the file is
 * fsynced in batches at most `syncIntervalMs` after an append (and when it is closed), which bounds what a machine crash
 * can take. Inserts are idempotent by id, so a replay cut short by a crash is simply replayed again.
 */
export class SpendSpill {
  private fd: number | null = null;
  private sequence = 0;
  private pending = false;
  private syncTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly dir: string,
    private readonly logger: Logger,
    private readonly syncIntervalMs = defaultSyncIntervalMs,
  ) {}

  /** Whether spilled records wait for replay. */
  get hasPending(): boolean {
    return this.pending;
  }

  /** Look for files a previous process left (claimed ones included: their replay was interrupted). */
  scan(): void {
    try {
      this.pending = readdirSync(this.dir).some((name) => spillName.test(name) || claimedName.test(name));
    } catch {
      this.pending = false;
    }
  }

  /** Append records; false when the disk refused them too (the caller counts them as dropped). */
  append(records: readonly SpendRecord[]): boolean {
    if (records.length === 0) return true;
    try {
      if (this.fd === null) {
        mkdirSync(this.dir, { recursive: true });
        this.sequence += 1;
        this.fd = openSync(
          join(this.dir, `spend-${Date.now().toString(36)}-${process.pid.toString(36)}-${this.sequence}.ndjson`),
          'a',
        );
        this.syncDirectory();
      }
      writeSync(this.fd, records.map((record) => `${JSON.stringify(record)}\n`).join(''));
      this.pending = true;
      this.scheduleSync();
      return true;
    } catch (error) {
      this.logger.error({ err: error, records: records.length }, 'spend spill file not writable');
      return false;
    }
  }

  /**
   * Insert every spilled record through `write` in batches; each file is deleted once fully written. Stops at the
   * first failed batch (the file stays for the next attempt). Returns the number of records replayed.
   */
  async replay(write: (batch: SpendRecord[]) => Promise<void>, batchSize: number): Promise<number> {
    this.seal();
    let replayed = 0;
    for (const name of this.files()) {
      const claimed = name.endsWith('.claimed') ? join(this.dir, name) : this.claim(name);
      if (!claimed) continue;
      try {
        replayed += await this.replayFile(claimed, write, batchSize);
        unlinkSync(claimed);
      } catch (error) {
        renameSync(claimed, claimed.replace(/\.claimed$/, ''));
        this.logger.warn({ err: error }, 'spend spill replay interrupted; will retry');
        throw error;
      }
    }
    this.pending = this.fd !== null;
    return replayed;
  }

  /**
   * Keep a record the store refused for its own data (`rejected-*.ndjson`, outside the replay pattern): an operator
   * can inspect and fix it; replaying it as is would only be refused again. False when the disk refused it too.
   */
  reject(record: SpendRecord): boolean {
    try {
      mkdirSync(this.dir, { recursive: true });
      appendFileSync(join(this.dir, `rejected-${process.pid.toString(36)}.ndjson`), `${JSON.stringify(record)}\n`);
      return true;
    } catch (error) {
      this.logger.error({ err: error }, 'spend rejected-records file not writable');
      return false;
    }
  }

  /** Close the current file so new spills go to a fresh one while this one replays. */
  close(): void {
    this.seal();
  }

  private seal(): void {
    if (this.fd === null) return;
    this.sync();
    closeSync(this.fd);
    this.fd = null;
  }

  /** One fsync for every append of the interval: a record is durable at most `syncIntervalMs` after it was written. */
  private scheduleSync(): void {
    if (this.syncTimer) return;
    this.syncTimer = setTimeout(() => {
      this.syncTimer = null;
      this.sync();
    }, this.syncIntervalMs);
    this.syncTimer.unref();
  }

  private sync(): void {
    if (this.syncTimer) clearTimeout(this.syncTimer);
    this.syncTimer = null;
    if (this.fd === null) return;
    try {
      fdatasyncSync(this.fd);
    } catch (error) {
      this.logger.error({ err: error }, 'spend journal fsync failed');
    }
  }

  /** A new file's name is durable only once its folder is synced. Not every file system allows it; best effort. */
  private syncDirectory(): void {
    let dirFd: number | null = null;
    try {
      dirFd = openSync(this.dir, 'r');
      fsyncSync(dirFd);
    } catch {
      // The records are still written; only a machine crash before the next sync could forget the file's name.
    } finally {
      if (dirFd !== null) closeSync(dirFd);
    }
  }

  private files(): string[] {
    try {
      return readdirSync(this.dir)
        .filter((name) => spillName.test(name) || claimedName.test(name))
        .sort();
    } catch {
      return [];
    }
  }

  /** Rename before reading, so two processes sharing the folder never replay one file twice at once. */
  private claim(name: string): string | null {
    const from = join(this.dir, name);
    try {
      renameSync(from, `${from}.claimed`);
      return `${from}.claimed`;
    } catch {
      return null;
    }
  }

  private async replayFile(
    path: string,
    write: (batch: SpendRecord[]) => Promise<void>,
    batchSize: number,
  ): Promise<number> {
    let batch: SpendRecord[] = [];
    let count = 0;
    const lines = createInterface({ input: createReadStream(path, 'utf8'), crlfDelay: Number.POSITIVE_INFINITY });
    for await (const line of lines) {
      if (line.trim() === '') continue;
      try {
        batch.push(JSON.parse(line) as SpendRecord);
      } catch {
        // A line cut short by a crash mid-append; the rest of the file is intact.
        this.logger.warn({ file: path }, 'skipping a truncated spend spill line');
        continue;
      }
      if (batch.length >= batchSize) {
        await write(batch);
        count += batch.length;
        batch = [];
      }
    }
    if (batch.length > 0) await write(batch);
    return count + batch.length;
  }
}
