import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

export interface RunningService {
  child: ChildProcess;
  url: string;
  output: () => string;
  /**
   * The first match of `pattern` in what the service printed from offset `from` on (default: everything), the moment
   * it prints it: a test waits on the service's own log line instead of polling it.
   */
  logged(pattern: RegExp, from?: number, timeoutMs?: number): Promise<RegExpExecArray>;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * Start a built service (`<service>/dist/main.js`, built by `npm test`) as a real process on an ephemeral port and
 * wait for its "listening on" line.
 */
export async function startService(
  main: string,
  env: Record<string, string>,
  timeoutMs = 30_000,
): Promise<RunningService> {
  const child = spawn(process.execPath, [main], {
    cwd: repoRoot,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`service did not start in time:\n${output}`)), timeoutMs);
    const check = () => {
      const match = /listening on https?:\/\/[^\s:]+:(\d+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(`http://127.0.0.1:${match[1]}`);
      }
    };
    child.stdout?.on('data', check);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`service exited with ${code}:\n${output}`));
    });
  });
  const logged = (pattern: RegExp, from = 0, timeoutMs = 60_000) =>
    new Promise<RegExpExecArray>((resolve, reject) => {
      const check = () => {
        const match = pattern.exec(output.slice(from));
        if (!match) return false;
        clearTimeout(timer);
        child.stdout?.off('data', onData);
        child.stderr?.off('data', onData);
        resolve(match);
        return true;
      };
      const onData = () => void check();
      const timer = setTimeout(() => {
        child.stdout?.off('data', onData);
        child.stderr?.off('data', onData);
        reject(new Error(`no ${pattern} in the output in time:\n${output.slice(from)}`));
      }, timeoutMs);
      if (check()) return;
      child.stdout?.on('data', onData);
      child.stderr?.on('data', onData);
    });
  return {
    child,
    url,
    output: () => output,
    logged,
    stop: (signal = 'SIGTERM') =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve(child.exitCode);
        child.once('exit', (code) => resolve(code));
        child.kill(signal);
      }),
  };
}
