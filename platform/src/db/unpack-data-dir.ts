import { mkdirSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { isAbsolute, join, relative } from 'node:path';
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import { Parser, type ReadEntry } from 'tar';

const inflate = promisify(gunzip);

/**
 * Inflated output is produced in chunks of this size, each one a round trip to libuv's thread pool: at zlib's default
 * of 16 KB, the image's template (3 MB in, 27 MB out) took about 1,700 round trips and 210–270 ms to inflate, against
 * 36–60 ms in chunks of 4 MB.
 */
const inflateChunkBytes = 4 << 20;

/** The marker Postgres (and PGlite) read to decide a data directory holds a database: written last. */
const completeMarker = 'PG_VERSION';

/**
 * Writes a data directory archive (PGlite's `dumpDataDir`, gzipped or not) into `dataDir` with the file system's
 * own calls. PGlite can load the same archive itself (`loadDataDir`), but it writes every file through
 * Emscripten's file-system layer, one path lookup per component: about 1.1 s of a first start on the image's template,
 * against about 0.25 s here (`tar` parses the archive, the files are written as they arrive).
 *
 * The archive holds regular files and directories only, as PGlite writes them; anything else (a link, a device, a
 * path that leaves `dataDir`) is refused rather than followed. Files are owner-only, as Postgres wants its data
 * directory. `PG_VERSION` is written last, so an unpack cut short leaves a directory that no store takes for a
 * database, and the next start unpacks again over it. Modification times are not restored: Postgres never reads them.
 * Inflating and writing run on libuv's threads, so a service that opens its store while its modules load (the
 * gateway's main.ts) does both at once.
 */
export async function unpackDataDir(archive: Uint8Array, dataDir: string): Promise<void> {
  const bytes =
    archive[0] === 0x1f && archive[1] === 0x8b ? await inflate(archive, { chunkSize: inflateChunkBytes }) : archive;
  let marker: Buffer | undefined;
  const writes: Promise<void>[] = [];
  // Folders already made: most files share a folder, and each needs it only once.
  const made = new Set<string>();
  const makeFolder = (folder: string) => {
    if (made.has(folder)) return;
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    made.add(folder);
  };
  let refused: Error | undefined;
  const parser = new Parser({
    strict: true,
    onReadEntry: (entry: ReadEntry) => {
      const name = entry.path.replace(/^\/+/, '');
      const path = join(dataDir, name);
      const inside = relative(dataDir, path);
      if (refused || inside.startsWith('..') || isAbsolute(inside)) {
        refused ??= new Error(`the data directory archive names a path outside the directory: ${entry.path}`);
        entry.resume();
        return;
      }
      if (entry.type === 'Directory') {
        makeFolder(path);
        entry.resume();
        return;
      }
      if (entry.type !== 'File' && entry.type !== 'OldFile') {
        refused = new Error(`the data directory archive holds a ${entry.type} entry (${entry.path})`);
        entry.resume();
        return;
      }
      const chunks: Buffer[] = [];
      entry.on('data', (chunk: Buffer) => chunks.push(chunk));
      entry.on('end', () => {
        const content = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
        if (inside === completeMarker) {
          marker = content;
          return;
        }
        makeFolder(join(path, '..'));
        writes.push(writeFile(path, content, { mode: 0o600 }));
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    parser.on('error', reject);
    parser.on('end', resolve);
    parser.end(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  });
  await Promise.all(writes);
  if (refused) throw refused;
  if (!marker) throw new Error(`the data directory archive holds no ${completeMarker}: not a database`);
  await writeFile(join(dataDir, completeMarker), marker, { mode: 0o600 });
}
