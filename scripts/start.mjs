// `npm start`: run the stack with the embedded store and no configuration. Each service is a child process on its
// default port (gateway 8787, optimizer 8088, evidence 8089); the first to exit (or Ctrl-C) stops the rest. The
// gateway and the optimizer share an optimizer bearer and a content key generated once into GW_DATA_DIR (mode 0600)
// unless the environment sets them; the evidence service gets an admin bearer of its own there (spec 001 §4.2: a
// distinct high-entropy value).
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

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
  GW_OPTIMIZER_TOKEN: process.env.GW_OPTIMIZER_TOKEN ?? secret('optimizer-token', () => randomBytes(32).toString('base64url')),
  GW_CONTENT_KEY: process.env.GW_CONTENT_KEY ?? secret('content-key', () => randomBytes(32).toString('hex')),
};
const evidencePort = process.env.GW_EVIDENCE_PORT ?? '8089';
// The optimizer's admin routes (settings, purge) are re-served by the gateway with a bearer of their own.
const optimizerAdminToken = process.env.GW_OPTIMIZER_ADMIN_TOKEN ?? process.env.GW_ADMIN_TOKEN ?? secret('optimizer-admin-token', () => randomBytes(32).toString('base64url'));
const evidenceAdmin = { GW_ENDPOINT_CONTROL_ADMIN_TOKEN: process.env.GW_ENDPOINT_CONTROL_ADMIN_TOKEN ?? secret('evidence-admin-token', () => randomBytes(32).toString('base64url')) };
const services = [
  { name: 'optimizer', main: 'optimizer/dist/main.js', env: { GW_OPTIMIZER_PORT: optimizerPort, GW_ADMIN_TOKEN: optimizerAdminToken } },
  { name: 'evidence', main: 'evidence/dist/main.js', env: { GW_EVIDENCE_PORT: evidencePort, ...evidenceAdmin } },
  {
    name: 'gateway',
    main: 'gateway/dist/main.js',
    env: { GW_OPTIMIZER_URL: process.env.GW_OPTIMIZER_URL ?? `http://127.0.0.1:${optimizerPort}`, GW_ENDPOINT_CONTROL_URL: process.env.GW_ENDPOINT_CONTROL_URL ?? `http://127.0.0.1:${evidencePort}`, ...evidenceAdmin, GW_OPTIMIZER_ADMIN_TOKEN: optimizerAdminToken },
  },
].filter((service) => existsSync(join(root, service.main)));

let stopping = false;
const children = services.map((service) => {
  const child = spawn(process.execPath, [service.main, ...process.argv.slice(2)], { cwd: root, stdio: 'inherit', env: { ...shared, ...service.env, ...process.env, GW_DATA_DIR: dataDir } });
  child.on('exit', (code, signal) => {
    if (!stopping) {
      process.stderr.write(`${service.name} exited (${signal ?? code}); stopping the stack\n`);
      stop(code ?? 1);
    }
  });
  return child;
});

function stop(code) {
  stopping = true;
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  // Children drain in-flight requests on SIGTERM; give them a bounded time to do so.
  setTimeout(() => process.exit(code), 15_000).unref();
  Promise.all(children.map((child) => (child.exitCode === null ? new Promise((done) => child.on('exit', done)) : null))).then(() => process.exit(code));
}
process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));
