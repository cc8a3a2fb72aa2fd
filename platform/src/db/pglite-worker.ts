// The embedded store's own thread: opens PGlite (unpacking the image's template into an empty data directory first)
// and answers `PgliteDb`'s requests (pglite-protocol.ts). Postgres compiled to WebAssembly runs every statement on
// the thread that calls it; here that is not the thread serving HTTP, so a service's requests and the store's work
// (its start, a batch of spend rows) use two cores instead of taking turns on one.
//
// Its relative imports name `.ts` files: when tests run the sources, Node runs this file itself (stripping the
// types), and the compiler rewrites the extensions to `.js` for dist/ and the image's bundles.
import { existsSync, mkdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite, type Transaction } from '@electric-sql/pglite';
import {
  toFailure,
  type PgliteReady,
  type PgliteReply,
  type PgliteRequest,
  type PgliteRows,
  type PgliteWorkerOptions,
} from './pglite-protocol.ts';
import { unpackDataDir } from './unpack-data-dir.ts';

const port = parentPort;
if (!port) throw new Error('pglite-worker.js runs as a worker thread of PgliteDb, not on its own');

/**
 * Postgres's server default of 128 MB of shared buffers is memory PGlite clears at every start, about half of
 * opening a store (0.95 s against 0.5 s with 16 MB, on the image's template). A store one process writes reads its
 * pages back through the operating system's page cache either way.
 */
const startParams = [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB'];

async function open({ dataDir, templatePath }: PgliteWorkerOptions): Promise<PGlite> {
  const template = templatePath && existsSync(templatePath) ? templatePath : undefined;
  if (!dataDir) {
    // In memory, PGlite loads the archive itself: nothing is written to a disk, and it spares initdb all the same.
    return PGlite.create({ startParams, ...(template ? { loadDataDir: new Blob([await readFile(template)]) } : {}) });
  }
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  // The template is read only for a directory that holds no database, so a restart reads nothing it would not use.
  if (template && !existsSync(join(dataDir, 'PG_VERSION'))) await unpackDataDir(await readFile(template), dataDir);
  return PGlite.create({ dataDir, startParams });
}

/** An open transaction: PGlite's handle, and how to end it (commit or roll back, then answer the `end` request). */
interface OpenTransaction {
  tx: Transaction;
  end(commit: boolean, replyTo: number): void;
}

/** The answer to a statement or `end` naming a transaction that is not open (ended, or never begun). */
function transactionEnded(id: number): PgliteReply {
  return { id, ok: false, error: toFailure(new Error('the transaction has already ended')) };
}

function rowsOf(result: { rows: unknown[]; affectedRows?: number }): PgliteRows {
  return { rows: result.rows as Record<string, unknown>[], rowCount: result.affectedRows ?? result.rows.length };
}

function serve(database: PGlite): void {
  const transactions = new Map<number, OpenTransaction>();
  const reply = (message: PgliteReply, transfer: ArrayBuffer[] = []) => port!.postMessage(message, transfer);
  const answer = (id: number, work: Promise<PgliteRows | Uint8Array | void>) =>
    work.then(
      (value) =>
        value instanceof Uint8Array
          ? reply({ id, ok: true, value }, [value.buffer as ArrayBuffer])
          : reply(value ? { id, ok: true, value } : { id, ok: true }),
      (error: unknown) => reply({ id, ok: false, error: toFailure(error) }),
    );

  const begin = (id: number) => {
    // Set by the `end` that closes the transaction; until then a failure (it could not open) answers the `begin`.
    let endReply: number | undefined;
    database
      .transaction(async (tx) => {
        const commit = await new Promise<boolean>((resolve) => {
          transactions.set(id, {
            tx,
            end: (commitIt, replyTo) => {
              endReply = replyTo;
              resolve(commitIt);
            },
          });
          reply({ id, ok: true });
        });
        transactions.delete(id);
        if (!commit) await tx.rollback();
      })
      .then(
        () => reply({ id: endReply ?? id, ok: true }),
        (error: unknown) => {
          transactions.delete(id);
          reply({ id: endReply ?? id, ok: false, error: toFailure(error) });
        },
      );
  };

  port!.on('message', (request: PgliteRequest) => {
    switch (request.op) {
      case 'query': {
        const target = request.transaction === undefined ? database : transactions.get(request.transaction)?.tx;
        if (!target) {
          reply(transactionEnded(request.id));
          return;
        }
        void answer(request.id, target.query(request.sql, request.params as unknown[]).then(rowsOf));
        return;
      }
      case 'exec':
        void answer(
          request.id,
          database.exec(request.sql).then(() => undefined),
        );
        return;
      case 'begin':
        begin(request.id);
        return;
      case 'end': {
        const open = transactions.get(request.transaction);
        if (open) open.end(request.commit, request.id);
        else reply(transactionEnded(request.id));
        return;
      }
      case 'dump':
        void answer(
          request.id,
          database.dumpDataDir('gzip').then(async (archive) => new Uint8Array(await archive.arrayBuffer())),
        );
        return;
      case 'close':
        void answer(request.id, database.close());
        return;
    }
  });
}

try {
  const database = await open(workerData as PgliteWorkerOptions);
  serve(database);
  port.postMessage({ ready: true } satisfies PgliteReady);
} catch (error) {
  port.postMessage({ ready: false, error: toFailure(error) } satisfies PgliteReady);
}
