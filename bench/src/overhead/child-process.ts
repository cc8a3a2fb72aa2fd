import { spawn, type ChildProcess } from 'node:child_process';

export interface StartProcessOptions {
  name: string;
  /** Script run with this Node binary. */
  entry: string;
  args?: readonly string[];
  /** Extra Node flags (e.g. `--cpu-prof`). */
  nodeArgs?: readonly string[];
  /** A program that runs Node for us, with its arguments (e.g. `valgrind --tool=callgrind`); it must exec Node. */
  launcher?: readonly string[];
  env?: Record<string, string>;
  cwd?: string;
  /** Printed once the process listens; its first capture group is the port. */
  ready: RegExp;
  timeoutMs?: number;
}

export interface RunningProcess {
  name: string;
  pid: number;
  port: number;
  /** The last output, for error messages. */
  output(): string;
  stop(): Promise<void>;
}

const KEEP_OUTPUT_CHARS = 16_384;
const live = new Set<ChildProcess>();

/** Remember a child until it exits, so an interrupted run can take it down with it. */
export function track<Child extends ChildProcess>(child: Child): Child {
  live.add(child);
  child.once('exit', () => live.delete(child));
  return child;
}

/** SIGTERM to every child still running (the benchmark was interrupted): no server outlives the run. */
export function terminateAll(): void {
  for (const child of live) child.kill('SIGTERM');
}

/**
 * A server as its own OS process (so /proc can tell its CPU and memory apart from the others'). Its output is
 * drained for its whole life, as a container runtime would, and only the tail kept.
 */
export async function startProcess(options: StartProcessOptions): Promise<RunningProcess> {
  const node = [process.execPath, ...(options.nodeArgs ?? []), options.entry, ...(options.args ?? [])];
  const [command = node[0] ?? '', ...args] = [...(options.launcher ?? []), ...node];
  const child = track(
    spawn(command, args, {
      cwd: options.cwd,
      env: { PATH: process.env.PATH ?? '', ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-KEEP_OUTPUT_CHARS);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const port = await waitUntilReady(child, options, () => output);
  return {
    name: options.name,
    pid: child.pid ?? -1,
    port,
    output: () => output,
    stop: () => stopChild(child),
  };
}

function waitUntilReady(child: ChildProcess, options: StartProcessOptions, output: () => string): Promise<number> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${options.name} did not start within ${options.timeoutMs ?? 30_000} ms:\n${output()}`));
    }, options.timeoutMs ?? 30_000);
    const onData = () => {
      const match = options.ready.exec(output());
      if (!match) return;
      cleanup();
      resolve(Number(match[1]));
    };
    const onExit = (code: number | null) => {
      cleanup();
      reject(new Error(`${options.name} exited with ${code} before it was ready:\n${output()}`));
    };
    const cleanup = () => {
      clearTimeout(timer);
      child.stdout?.off('data', onData);
      child.off('exit', onExit);
    };
    child.stdout?.on('data', onData);
    child.on('exit', onExit);
  });
}

/** SIGTERM (a profiled process writes its profile on a clean exit), SIGKILL after 10 s. */
function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
