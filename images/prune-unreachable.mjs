// Run in an image's dependency stage, after `npm ci --omit=dev -w A -w B …`:
//   node prune-unreachable.mjs [--dry-run] ROOT…
// where a ROOT is a workspace folder (`gateway`) or an installed package as the lockfile names it
// (`node_modules/@electric-sql/pglite`). Deletes every installed package that no root reaches through its production
// dependencies (a workspace link found on the way is followed, and is itself kept only when reached). npm's
// workspace filter does not do this: `npm ci -w gateway` still installs the packages only another workspace needs
// (the operator's Kubernetes client brings tar-fs and the bare-* runtime, 9 MB the component image never loads).
// Reachability follows Node's resolution over the lockfile's layout: a dependency of the package at P is the
// nearest P/node_modules/<name>, then each parent folder's, then the root's. Optional and peer dependencies count
// when installed.
import { existsSync, readFileSync, rmSync } from 'node:fs';

const dryRun = process.argv.includes('--dry-run');
const roots = process.argv.slice(2).filter((argument) => argument !== '--dry-run');
if (roots.length === 0) {
  process.stderr.write('usage: node prune-unreachable.mjs [--dry-run] ROOT…\n');
  process.exit(2);
}
const packages = JSON.parse(readFileSync('package-lock.json', 'utf8')).packages;

/** The lockfile path Node would load `name` from when required by the package at `from`. */
function resolve(name, from) {
  for (let folder = from; ;) {
    const candidate = `${folder ? `${folder}/` : ''}node_modules/${name}`;
    if (packages[candidate]) return candidate;
    if (!folder) return undefined;
    const nested = folder.lastIndexOf('/node_modules/');
    folder = nested >= 0 ? folder.slice(0, nested) : '';
  }
}

const reached = new Set();
const pending = [...roots];
while (pending.length > 0) {
  const path = pending.pop();
  if (reached.has(path)) continue;
  reached.add(path);
  const entry = packages[path];
  if (!entry) throw new Error(`${path} is not in package-lock.json`);
  const target = entry.link ? entry.resolved : path;
  if (target !== path) pending.push(target);
  const names = Object.keys({
    ...packages[target].dependencies,
    ...packages[target].optionalDependencies,
    ...packages[target].peerDependencies,
  });
  for (const name of names) {
    const found = resolve(name, target);
    if (found) pending.push(found);
  }
}

const removed = Object.keys(packages).filter(
  (path) => path.startsWith('node_modules/') && !reached.has(path) && existsSync(path),
);
// A package nested under a removed one goes with it.
if (dryRun) process.stdout.write(removed.map((path) => `${path}\n`).join(''));
else for (const path of removed) rmSync(path, { recursive: true, force: true });
process.stdout.write(
  `${dryRun ? 'would keep' : 'kept'} ${reached.size} packages for ${roots.join(', ')}, ${dryRun ? 'would remove' : 'removed'} ${removed.length}\n`,
);
