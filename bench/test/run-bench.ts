import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const main = `${repoRoot}bench/dist/main.js`;

/**
 * `npm run bench -- …` as a user runs it: the built harness (`npm test` builds first), from the repository root.
 * Past `timeoutMs` it is sent SIGTERM, on which it takes its servers down: a test that gives up leaves nothing running.
 */
export function runBench(
  args: string[],
  timeoutMs: number,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  expect(existsSync(main), `${main} is missing: run npm run build`).toBe(true);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [main, ...args], {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: timeoutMs,
      killSignal: 'SIGTERM',
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}
