import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

/** A free loopback port for programs that cannot listen on port 0 and report it (etcd, the CRD server). */
export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolvePort(port));
    });
  });
}

export interface Managed {
  child: ChildProcess;
  name: string;
  logFile: string;
  stop(): Promise<void>;
}

// Children die with the test process even when a test forgets stop() or the worker is torn down.
const live = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of live) child.kill('SIGKILL');
});

/** Starts a process with its output in a log file; stop() sends SIGTERM, then SIGKILL after five seconds. */
export function startProcess(name: string, command: string, args: string[], logFile: string): Managed {
  const log = createWriteStream(logFile);
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);
  live.add(child);
  const exited = new Promise<void>((resolveExit) =>
    child.once('exit', () => {
      live.delete(child);
      resolveExit();
    }),
  );
  return {
    child,
    name,
    logFile,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
      log.end();
    },
  };
}

/** Polls `probe` until it resolves true; fails early when the process died, naming its log. */
export async function waitUntil(
  process: Managed,
  what: string,
  probe: () => Promise<boolean>,
  timeoutMs = 60_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (process.child.exitCode !== null)
      throw new Error(`${process.name} exited (${process.child.exitCode}) before ${what}; see ${process.logFile}`);
    if (await probe().catch(() => false)) return;
    if (Date.now() > deadline)
      throw new Error(`${process.name}: timed out waiting for ${what}; see ${process.logFile}`);
    await sleep(200);
  }
}
