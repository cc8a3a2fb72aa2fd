// `npm start`: run the stack with the embedded store and no configuration. Each service is a child process on its
// default port; the first to exit (or Ctrl-C) stops the rest. Services are listed once they have a main.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const services = [
  { name: 'gateway', main: 'gateway/dist/main.js' },
  { name: 'optimizer', main: 'optimizer/dist/main.js' },
].filter((service) => existsSync(`${root}/${service.main}`));

const children = services.map((service) => {
  const child = spawn(process.execPath, [service.main, ...process.argv.slice(2)], { cwd: root, stdio: 'inherit', env: process.env });
  child.on('exit', (code, signal) => {
    if (!stopping) {
      process.stderr.write(`${service.name} exited (${signal ?? code}); stopping the stack\n`);
      stop(code ?? 1);
    }
  });
  return child;
});

let stopping = false;
function stop(code) {
  stopping = true;
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  // Children drain in-flight requests on SIGTERM; give them a bounded time to do so.
  setTimeout(() => process.exit(code), 15_000).unref();
  Promise.all(children.map((child) => (child.exitCode === null ? new Promise((resolve) => child.on('exit', resolve)) : null))).then(() => process.exit(code));
}
process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));
