// `npm run image`: build gw's two images from the Containerfile and report their size and start time.
//
//   <repo>/gw:<version>           the gateway, optimizer and evidence services (first argument picks one)
//   <repo>/gw-operator:<version>  the operator
//
// <version> is the root package.json's; <repo> is GW_IMAGE_REPO (default `localhost`). The engine is Podman, or
// Docker when Podman is absent (GW_CONTAINER_ENGINE overrides). The base is GW_BASE_IMAGE (with GW_BUILD_IMAGE for
// the build stages); unset, a Node base is built from Debian packages when mmdebstrap is installed
// (images/build-base.sh), otherwise the Containerfile's default, the official node:24-slim, is used.
// `--no-measure` skips the report; `--starts N` (default 3) sets how many starts each start time is the median of.
// See README "Container images".
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const version = manifest.version;
const repo = (process.env.GW_IMAGE_REPO ?? 'localhost').replace(/\/+$/, '');
const measure = !process.argv.includes('--no-measure');
const startsFlag = process.argv.indexOf('--starts');
const starts = startsFlag >= 0 ? Number(process.argv[startsFlag + 1]) : 3;
if (!Number.isInteger(starts) || starts < 1) {
  process.stderr.write('--starts takes a whole number of starts, 1 or more\n');
  process.exit(2);
}

const onPath = (command) => spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
const engine = process.env.GW_CONTAINER_ENGINE ?? (onPath('podman') || !onPath('docker') ? 'podman' : 'docker');
const environment = { ...process.env };
if (engine === 'podman') environment.CONTAINERS_CONF ??= join(root, 'images', 'containers.conf');

function run(command, args, options = {}) {
  const result = spawnSync(command, args, {
    cwd: root,
    env: environment,
    stdio: options.capture ? ['ignore', 'pipe', 'inherit'] : 'inherit',
    encoding: 'utf8',
  });
  if (result.status !== 0) {
    process.stderr.write(`${command} ${args.join(' ')} failed (exit ${result.status ?? result.signal})\n`);
    process.exit(1);
  }
  return result.stdout ?? '';
}

function bases() {
  if (process.env.GW_BASE_IMAGE)
    return { base: process.env.GW_BASE_IMAGE, build: process.env.GW_BUILD_IMAGE ?? process.env.GW_BASE_IMAGE };
  if (engine !== 'podman' || !onPath('mmdebstrap')) return null;
  const [base, build] = run('bash', [join(root, 'images', 'build-base.sh')], { capture: true })
    .trim()
    .split('\n')
    .slice(-2);
  return { base, build };
}

function revision() {
  try {
    return execFileSync('git', ['rev-parse', 'HEAD'], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    return 'unknown';
  }
}

function build(target, tag, base) {
  const args = ['build', '--network', 'host', '--target', target, '--tag', tag, '--file', 'Containerfile'];
  args.push(
    '--build-arg',
    `VERSION=${version}`,
    '--build-arg',
    `REVISION=${revision()}`,
    '--build-arg',
    `LICENSES=${manifest.license}`,
  );
  if (base) args.push('--build-arg', `BASE_IMAGE=${base.base}`, '--build-arg', `BUILD_IMAGE=${base.build}`);
  // Behind a TLS-intercepting proxy npm needs its CA inside the build: a build secret, never stored in a layer.
  const extraCa = process.env.NODE_EXTRA_CA_CERTS;
  if (extraCa && existsSync(extraCa)) args.push('--secret', `id=build-ca,src=${extraCa}`);
  // Podman can lend the build the host's npm cache (filled by `npm ci`), so a fresh machine downloads nothing twice.
  const hostCache = join(homedir(), '.npm');
  if (engine === 'podman' && existsSync(join(hostCache, '_cacache')))
    args.push('--volume', `${hostCache}:/root/.npm-host`, '--build-arg', 'NPM_CACHE=/root/.npm-host');
  run(engine, [...args, '.']);
}

const freePort = () =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

/** Seconds from `run` to the readiness probe answering 200, then SIGTERM's exit code and seconds to exit. */
async function startTime(tag, component, portVariable, readinessPath, extraEnv = {}) {
  const port = await freePort();
  const name = `gw-image-measure-${component}-${process.pid}`;
  const started = performance.now();
  const variables = { ...extraEnv, [portVariable]: String(port) };
  const args = [
    'run',
    '--detach',
    '--name',
    name,
    '--read-only',
    '--network',
    'host',
    ...Object.keys(variables).flatMap((variable) => ['--env', variable]),
    tag,
    component,
  ];
  spawnSync(engine, args, { env: { ...environment, ...variables }, stdio: 'ignore' });
  let ready = null;
  while (performance.now() - started < 60_000) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}${readinessPath}`)).ok) {
        ready = (performance.now() - started) / 1000;
        break;
      }
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const stopping = performance.now();
  const exit = await new Promise((resolve) => {
    spawn(engine, ['wait', name], { env: environment, stdio: ['ignore', 'pipe', 'ignore'] }).stdout.on('data', (data) =>
      resolve(data.toString().trim()),
    );
    spawnSync(engine, ['kill', '--signal', 'TERM', name], { env: environment, stdio: 'ignore' });
  });
  const stopped = (performance.now() - stopping) / 1000;
  spawnSync(engine, ['rm', '--force', name], { env: environment, stdio: 'ignore' });
  return { ready, exit, stopped };
}

/**
 * `starts` fresh containers of one component, one after another: the median start (a shared machine's disk and CPU
 * make single starts swing by a second), every start's time, and the exit code and stop time of the median one.
 */
async function medianStart(tag, component, portVariable, readinessPath, environmentOf = async () => ({ env: {} })) {
  const measured = [];
  for (let index = 0; index < starts; index += 1) {
    // Each start gets its own environment (a fresh Postgres schema): every one is a first start.
    const { env, drop } = await environmentOf();
    measured.push(await startTime(tag, component, portVariable, readinessPath, env));
    await drop?.();
  }
  const ready = measured.map((start) => start.ready ?? Number.POSITIVE_INFINITY);
  const median = [...measured].sort((a, b) => (a.ready ?? Infinity) - (b.ready ?? Infinity))[Math.floor(starts / 2)];
  return { ...median, all: ready };
}

const describeStart = ({ ready, exit, stopped, all }) =>
  `${ready === null ? 'NOT READY in 60 s' : `${ready.toFixed(2)} s`}${all.length > 1 ? ` (median of ${all.map((seconds) => (Number.isFinite(seconds) ? seconds.toFixed(2) : 'none')).join(', ')})` : ''}, exit ${exit} after ${stopped.toFixed(2)} s`;

/** A fresh schema on the test Postgres (GW_TEST_DB_URL, else the local one), or null when none answers. */
let schemas = 0;
async function postgresSchema() {
  const url = process.env.GW_TEST_DB_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  try {
    const { default: pg } = await import('pg');
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
    await client.connect();
    const schema = `image_measure_${process.pid}_${(schemas += 1)}`;
    await client.query(`CREATE SCHEMA ${schema}`);
    return {
      env: {
        GW_SPEND_DB_URL: `${url}?options=${encodeURIComponent(`-c search_path=${schema}`)}`,
        GW_KEYSTORE_KEY: 'c3'.repeat(32),
        GW_ADMIN_TOKEN: 'image-measure-admin-token-0123456789',
      },
      drop: async () => {
        await client.query(`DROP SCHEMA ${schema} CASCADE`);
        await client.end();
      },
    };
  } catch {
    return null;
  }
}

const size = (tag) => Number(run(engine, ['image', 'inspect', '--format', '{{.Size}}', tag], { capture: true }).trim());

const base = bases();
const images = { component: `${repo}/gw:${version}`, operator: `${repo}/gw-operator:${version}` };
build('component', images.component, base);
build('operator', images.operator, base);
process.stdout.write(
  `\nbuilt ${images.component} and ${images.operator} on ${base ? base.base : 'the official node:24-slim'}\n`,
);
if (measure) {
  const mb = (bytes) => `${(bytes / 1e6).toFixed(1)} MB`;
  process.stdout.write(
    `\nimage sizes\n  ${images.component}  ${size(images.component)} bytes (${mb(size(images.component))})\n  ${images.operator}  ${size(images.operator)} bytes (${mb(size(images.operator))})\n`,
  );
  process.stdout.write('\nstart time, embedded store, read-only root (run → readiness 200; SIGTERM → exit)\n');
  for (const [component, portVariable, readinessPath] of [
    ['gateway', 'GW_PORT', '/'],
    ['optimizer', 'GW_OPTIMIZER_PORT', '/health'],
    ['evidence', 'GW_EVIDENCE_PORT', '/readyz'],
  ]) {
    const start = await medianStart(images.component, component, portVariable, readinessPath);
    process.stdout.write(`  ${component.padEnd(9)} ready ${describeStart(start)}\n`);
  }
  // The embedded store (PGlite, Postgres compiled to WebAssembly) initialises a database on first start; a
  // production gateway runs on Postgres.
  if (await postgresSchema().then((probe) => probe?.drop().then(() => true))) {
    const start = await medianStart(images.component, 'gateway', 'GW_PORT', '/', postgresSchema);
    process.stdout.write(`start time, gateway on Postgres\n  gateway   ready ${describeStart(start)}\n`);
  }
}
