import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAiSimulator, type SimulatorHandle } from '@gw/testkit';
import { adminRequest } from './gateway-stack.js';
import { repoRoot } from './process.js';
import { freeLoopbackPort as freePort } from '@gw/testkit';

/** Resolves with the first match of `pattern` in the output at or after `from` characters, as it arrives. */
function waitForOutput(
  read: () => string,
  child: ChildProcess,
  pattern: RegExp,
  from = 0,
  timeoutMs = 120_000,
): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${pattern} in time:\n${read()}`)), timeoutMs);
    const check = () => {
      const match = pattern.exec(read().slice(from));
      if (!match) return;
      clearTimeout(timer);
      child.stdout?.off('data', check);
      child.stderr?.off('data', check);
      resolve(match);
    };
    child.stdout?.on('data', check);
    child.stderr?.on('data', check);
    check();
  });
}

// `npm start` under a component crash: the supervisor restarts the optimizer while the gateway keeps answering.
describe('npm start keeps the stack up', () => {
  let dataDir: string;
  let provider: SimulatorHandle;
  let stack: ChildProcess;
  let output = '';
  let gatewayUrl: string;
  let optimizerUrl: string;
  let key: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'gw-supervised-'));
    provider = await startOpenAiSimulator({ apiKey: 'sk-openai-server' });
    const [optimizerPort, evidencePort] = [await freePort(), await freePort()];
    optimizerUrl = `http://127.0.0.1:${optimizerPort}`;
    stack = spawn(process.execPath, ['scripts/start.mjs'], {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        PATH: process.env.PATH ?? '',
        GW_DATA_DIR: dataDir,
        GW_PORT: '0',
        GW_HOST: '127.0.0.1',
        GW_OPTIMIZER_PORT: String(optimizerPort),
        GW_EVIDENCE_PORT: String(evidencePort),
        GW_ALLOW_PRIVATE_UPSTREAMS: 'true',
        GW_LOG_LEVEL: 'warn',
        GW_OPTIMIZER_BREAKER_COOLOFF_MS: '200',
      },
    });
    stack.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    stack.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const [, port] = await waitForOutput(() => output, stack, /gw gateway listening on http:\/\/127\.0\.0\.1:(\d+)/);
    gatewayUrl = `http://127.0.0.1:${port}`;
    await waitForOutput(() => output, stack, /gw optimizer listening on/);
    const admin = { url: gatewayUrl, token: (await readFile(join(dataDir, 'admin-token'), 'utf8')).trim() };
    expect(
      (
        await adminRequest(admin, 'PUT', '/admin/v1/providers/openai/key', {
          apiKey: 'sk-openai-server',
          baseUrl: provider.baseURL,
        })
      ).status,
    ).toBe(200);
    expect((await adminRequest(admin, 'PUT', '/admin/v1/routing', { defaultProvider: 'openai' })).status).toBe(200);
    const minted = await adminRequest(admin, 'POST', '/admin/v1/keys', { user: 'ada@example.com', team: 'platform' });
    key = minted.body.key as string;
  }, 180_000);

  afterAll(async () => {
    if (stack && stack.exitCode === null) {
      const exited = new Promise((resolve) => stack.once('exit', resolve));
      stack.kill('SIGKILL');
      await exited;
    }
    await provider?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  const chat = async () => {
    const response = await fetch(`${gatewayUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hello' }] }),
    });
    await response.arrayBuffer();
    return { status: response.status, optimization: response.headers.get('x-gw-optimization') };
  };
  const optimizerAnswers = async () =>
    fetch(`${optimizerUrl}/health`).then(
      (response) => response.ok,
      () => false,
    );

  it('restarts a killed optimizer while every call keeps succeeding, and uses it again once it is back', async () => {
    expect((await chat()).optimization).not.toBe('error');
    const pid = Number(/supervisor: optimizer started \(pid (\d+)\)/.exec(output)?.[1]);
    const mark = output.length;
    process.kill(pid, 'SIGKILL');

    // Traffic while the optimizer is away and until the restarted one answers a call again.
    const answers: Array<{ status: number; optimization: string | null }> = [];
    const restarted = waitForOutput(() => output, stack, /supervisor: optimizer started \(pid (\d+)\)/, mark);
    let back = false;
    while (!back) {
      const answer = await chat();
      answers.push(answer);
      back =
        answers.some((seen) => seen.optimization === 'error') &&
        answer.optimization !== 'error' &&
        answer.optimization !== 'timeout';
    }
    expect(answers.every((answer) => answer.status === 200)).toBe(true);
    expect(answers.filter((answer) => answer.optimization === 'error').length).toBeGreaterThan(0);
    expect(output.slice(mark)).toContain('supervisor: optimizer exited (signal SIGKILL); restarting in 500 ms');
    const [, newPid] = await restarted;
    expect(Number(newPid)).not.toBe(pid);
    expect(await optimizerAnswers()).toBe(true);
  }, 180_000);

  it('stops every component on its own SIGTERM', async () => {
    const pids = [...output.matchAll(/supervisor: (\w+) started \(pid (\d+)\)/g)].map((match) => Number(match[2]));
    const exited = new Promise<number | null>((resolve) => stack.once('exit', (code) => resolve(code)));
    stack.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(output).toContain('supervisor: SIGTERM received; stopping the stack');
    expect(output).not.toMatch(/supervisor: \w+ exited \(signal SIGTERM\); restarting/);
    const alive = pids.filter((pid) => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    });
    expect(alive).toEqual([]);
  }, 60_000);
});
