// `npm start`: run the stack with the embedded store and no configuration. Each service is a child process on its
// default port (gateway 8787, optimizer 8088, evidence 8089), kept up by a supervisor: a component that exits is
// restarted with exponential backoff (0.5 s doubling to 30 s; at most 5 restarts a minute, then it is given up: the
// stack stops if it is the gateway, the rest keeps running otherwise), with a line on stderr each time. While the
// optimizer is away the gateway serves unoptimized (it fails open). Only Ctrl-C or SIGTERM stops everything. The
// gateway and the optimizer share an optimizer bearer and a content key generated once into GW_DATA_DIR (mode 0600)
// unless the environment sets them; the evidence service gets an admin bearer of its own there (A
// distinct high-entropy value).
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Supervisor } from '@gw/platform/supervisor';

const root = fileURLToPath(new URL('..', import.meta.url));
const dataDir = resolve(process.env.GW_DATA_DIR ?? join(root, '.gw-data'));

function secret(name, generate) {
  const path = join(dataDir, name);
  if (existsSync(path)) return readFileSync(path, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const value = generate();
  writeFileSync(path, `${value}\n`, { mode: 0o600 });
  return value;
}

const optimizerPort = process.env.GW_OPTIMIZER_PORT ?? '8088';
const shared = {
  GW_DATA_DIR: dataDir,
  GW_OPTIMIZER_TOKEN:
    process.env.GW_OPTIMIZER_TOKEN ?? secret('optimizer-token', () => randomBytes(32).toString('base64url')),
  GW_CONTENT_KEY: process.env.GW_CONTENT_KEY ?? secret('content-key', () => randomBytes(32).toString('hex')),
};
const evidencePort = process.env.GW_EVIDENCE_PORT ?? '8089';
// The optimizer's admin routes (settings, purge) are re-served by the gateway with a bearer of their own.
const optimizerAdminToken =
  process.env.GW_OPTIMIZER_ADMIN_TOKEN ??
  process.env.GW_ADMIN_TOKEN ??
  secret('optimizer-admin-token', () => randomBytes(32).toString('base64url'));
const evidenceAdmin = {
  GW_ENDPOINT_CONTROL_ADMIN_TOKEN:
    process.env.GW_ENDPOINT_CONTROL_ADMIN_TOKEN ??
    secret('evidence-admin-token', () => randomBytes(32).toString('base64url')),
};
const services = [
  {
    name: 'optimizer',
    essential: false,
    main: 'optimizer/dist/main.js',
    env: { GW_OPTIMIZER_PORT: optimizerPort, GW_ADMIN_TOKEN: optimizerAdminToken },
  },
  {
    name: 'evidence',
    essential: false,
    main: 'evidence/dist/main.js',
    env: { GW_EVIDENCE_PORT: evidencePort, ...evidenceAdmin },
  },
  {
    name: 'gateway',
    essential: true,
    main: 'gateway/dist/main.js',
    env: {
      GW_OPTIMIZER_URL: process.env.GW_OPTIMIZER_URL ?? `http://127.0.0.1:${optimizerPort}`,
      GW_ENDPOINT_CONTROL_URL: process.env.GW_ENDPOINT_CONTROL_URL ?? `http://127.0.0.1:${evidencePort}`,
      ...evidenceAdmin,
      GW_OPTIMIZER_ADMIN_TOKEN: optimizerAdminToken,
    },
  },
].filter((service) => existsSync(join(root, service.main)));

// `npm start -- --help`: each service lists its variables, once; nothing is supervised.
if (process.argv.includes('--help') || process.argv.includes('-h')) {
  for (const service of services)
    spawnSync(process.execPath, [service.main, '--help'], { cwd: root, stdio: 'inherit' });
  process.stdout.write(
    '\nnpm start supervises the services: a component that exits is restarted (0.5 s backoff doubling to 30 s, at\nmost 5 restarts a minute, then given up; the stack stops if it is the gateway). Ctrl-C or SIGTERM stops all.\n',
  );
  process.exit(0);
}

const supervisor = new Supervisor({
  components: services,
  spawn: (service) =>
    spawn(process.execPath, [service.main, ...process.argv.slice(2)], {
      cwd: root,
      stdio: 'inherit',
      env: { ...shared, ...service.env, ...process.env, GW_DATA_DIR: dataDir },
    }),
  log: (line) => process.stderr.write(`${line}\n`),
  now: () => Date.now(),
  schedule: (run, delayMs) => {
    const timer = setTimeout(run, delayMs);
    return { cancel: () => clearTimeout(timer) };
  },
  onFatal: () => process.exit(1),
});
supervisor.start();

let stopping = false;
function stop(signal) {
  // A second Ctrl-C does not wait for the drain.
  if (stopping) process.exit(1);
  stopping = true;
  process.stderr.write(`supervisor: ${signal} received; stopping the stack\n`);
  // Children drain in-flight requests on SIGTERM; give them a bounded time to do so.
  setTimeout(() => process.exit(0), 15_000).unref();
  supervisor.stop('SIGTERM').then(() => process.exit(0));
}
process.on('SIGINT', () => stop('SIGINT'));
process.on('SIGTERM', () => stop('SIGTERM'));
