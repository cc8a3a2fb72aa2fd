import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Db, Queryable, QueryResult } from './db.js';
import {
  fromFailure,
  type PgliteReady,
  type PgliteReply,
  type PgliteRequest,
  type PgliteWorkerOptions,
} from './pglite-protocol.js';

/**
 * The worker is this module's sibling in whatever form this module runs: `.js` in dist/ and beside the image's
 * bundles (images/rolldown.config.mjs emits it as an entry of its own), `.ts` when tests run the sources.
 */
const workerUrl = new URL(`./pglite-worker${extname(fileURLToPath(import.meta.url))}`, import.meta.url);

/**
 * Statements that cannot change what a cache keyed on `changes` holds: reads, and the hot path's append-only
 * ledgers (spend rows and traces, which no other table follows by trigger or cascade).
 */
const unchanging = /^\s*(?:SELECT\b|INSERT INTO gw_(?:spend|traces)\b)/i;

/** Distributes a request's own fields over the union's members, so a request can be written without its id. */
type WithoutId<T> = T extends unknown ? Omit<T, 'id'> : never;

/**
 * The store's thread runs with the process's Node options (a profiler, source maps, memory limits) except
 * `--input-type`: that one only describes code given on the command line (`--eval`, `--print`, standard input), and a
 * worker thread that inherits it refuses to load its module file, so a one-line `node --input-type=module -e …`
 * script could not open an embedded store.
 */
export function workerExecArgv(execArgv: readonly string[]): string[] {
  return execArgv.filter(
    (argument, index) =>
      !argument.startsWith('--input-type=') && argument !== '--input-type' && execArgv[index - 1] !== '--input-type',
  );
}

/**
 * `Db` over PGlite (Postgres compiled to WebAssembly): the zero-configuration embedded store. It runs the same SQL
 * as production. PGlite runs on a worker thread of its own (pglite-worker.ts): WebAssembly executes on the thread
 * that calls it, and on the service's thread its start and every statement would take turns with serving HTTP.
 * PGlite has one connection, so it serialises statements itself; a transaction holds it exclusively.
 * docs/adr/0033-embedded-store-worker-thread.md says why and what it costs.
 */
export class PgliteDb implements Db {
  readonly kind = 'pglite' as const;
  /** See `Db.changes`: every other statement, script and transaction moves it, before it runs and after. */
  changes = 0;

  private nextId = 1;
  private readonly pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  /** Why the worker stopped, once it has: every request after that fails with it. */
  private stopped: Error | undefined;

  private constructor(private readonly worker: Worker) {
    worker.on('message', (reply: PgliteReply) => this.settle(reply));
    worker.on('error', (error: Error) => this.stop(storeStopped(error.message)));
    worker.on('exit', (code) => this.stop(storeStopped(`its thread exited with code ${code}`)));
    // Only a request in flight keeps the process alive, as a socket with a query out would.
    worker.unref();
  }

  /**
   * `dataDir` undefined keeps everything in memory (tests). `templatePath` names a tarball of an initialised database
   * (embedded-template.ts) that fills a data directory holding none yet, or the memory of a store without one,
   * instead of running initdb; it is read only then, so a restart does not read the template it would not use.
   */
  static async open(dataDir?: string, templatePath?: string): Promise<PgliteDb> {
    const options: PgliteWorkerOptions = {
      ...(dataDir ? { dataDir } : {}),
      ...(templatePath ? { templatePath } : {}),
    };
    const worker = new Worker(workerUrl, { workerData: options, execArgv: workerExecArgv(process.execArgv) });
    let onMessage!: (ready: PgliteReady) => void;
    let onError!: (error: Error) => void;
    let onExit!: (code: number) => void;
    const ready = await new Promise<PgliteReady>((resolve, reject) => {
      onMessage = resolve;
      onError = reject;
      onExit = (code) => reject(storeStopped(`its thread exited with code ${code} while opening`));
      worker.once('message', onMessage).once('error', onError).once('exit', onExit);
    }).finally(() => worker.off('message', onMessage).off('error', onError).off('exit', onExit));
    if (!ready.ready) {
      await worker.terminate();
      throw fromFailure(ready.error);
    }
    return new PgliteDb(worker);
  }

  async query<Row extends object = Record<string, unknown>>(
    sql: string,
    params: readonly unknown[] = [],
  ): Promise<QueryResult<Row>> {
    const run = () => this.request<QueryResult<Row>>({ op: 'query', sql, params });
    return unchanging.test(sql) ? run() : this.changing(run);
  }

  async exec(sql: string): Promise<void> {
    await this.changing(() => this.request({ op: 'exec', sql }));
  }

  async transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T> {
    return this.changing(async () => {
      const begin = this.nextId++;
      await this.request({ op: 'begin' }, begin);
      const tx: Queryable = {
        query: <Row extends object>(sql: string, params: readonly unknown[] = []) =>
          this.request<QueryResult<Row>>({ op: 'query', sql, params, transaction: begin }),
      };
      let result: T;
      try {
        result = await work(tx);
      } catch (error) {
        await this.request({ op: 'end', transaction: begin, commit: false }).catch(() => undefined);
        throw error;
      }
      await this.request({ op: 'end', transaction: begin, commit: true });
      return result;
    });
  }

  /**
   * Moves `changes` before the work (a read answered after this point may already see it) and after it, whatever
   * the outcome (a read that overtook it and was answered before it landed must not outlive it).
   */
  private async changing<T>(work: () => Promise<T>): Promise<T> {
    this.changes += 1;
    try {
      return await work();
    } finally {
      this.changes += 1;
    }
  }

  async ping(): Promise<boolean> {
    try {
      await this.request({ op: 'query', sql: 'SELECT 1', params: [] });
      return true;
    } catch {
      return false;
    }
  }

  /** The whole database as a gzipped tarball, the form `open` takes as a template. */
  async dumpDataDir(): Promise<Uint8Array> {
    return this.request<Uint8Array>({ op: 'dump' });
  }

  async close(): Promise<void> {
    if (this.stopped) return;
    await this.request({ op: 'close' });
    this.stop(storeStopped('it was closed'));
    await this.worker.terminate();
  }

  /** `id` is given for a `begin`, whose id then addresses the transaction. */
  private request<T>(request: WithoutId<PgliteRequest>, id = this.nextId++): Promise<T> {
    if (this.stopped) return Promise.reject(this.stopped);
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      if (this.pending.size === 1) this.worker.ref();
      try {
        this.worker.postMessage({ ...request, id });
      } catch (error) {
        // A parameter that cannot cross threads (a function, a class instance with private state).
        this.forget(id);
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
  }

  private settle(reply: PgliteReply): void {
    const waiting = this.pending.get(reply.id);
    if (!waiting) return;
    this.forget(reply.id);
    if (reply.ok) waiting.resolve(reply.value);
    else waiting.reject(fromFailure(reply.error));
  }

  private forget(id: number): void {
    this.pending.delete(id);
    if (this.pending.size === 0) this.worker.unref();
  }

  private stop(reason: Error): void {
    this.stopped ??= reason;
    for (const [id, waiting] of this.pending) {
      this.forget(id);
      waiting.reject(this.stopped);
    }
  }
}

/**
 * The store can no longer answer: SQLSTATE 57P01 (admin shutdown) with a FATAL severity, as a Postgres server that
 * went away answers, so callers that tell an outage from a bug (store-errors.ts) see an outage.
 */
function storeStopped(why: string): Error {
  return Object.assign(new Error(`the embedded store stopped: ${why}`), { code: '57P01', severity: 'FATAL' });
}
