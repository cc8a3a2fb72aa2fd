import { readFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAiSimulator, type SimulatorHandle } from '@gw/testkit';
import { startGatewayStack, type GatewayStack } from './gateway-stack.js';
import { startService, type RunningService } from './process.js';

const optimizerToken = 'e2e-optimizer-token-0123456789';
const contentKey = 'c3'.repeat(32);
const corpus = new URL('../../../shared/corpus/transcripts/', import.meta.url);

async function startOptimizer(dataDir: string, port = '0'): Promise<RunningService> {
  return startService('optimizer/dist/main.js', {
    GW_OPTIMIZER_PORT: port,
    GW_OPTIMIZER_TOKEN: optimizerToken,
    GW_CONTENT_KEY: contentKey,
    GW_DATA_DIR: dataDir,
    GW_ADMIN_TOKEN: 'e2e-admin-token-0123456789abcdef',
    GW_LOG_LEVEL: 'warn',
  });
}

// The gateway's pre-call hook against the real optimizer process: applied, fail-open, and recovery without restart.
describe('gateway ⇄ optimizer', () => {
  let provider: SimulatorHandle;
  let optimizer: RunningService;
  let optimizerDir: string;
  let stack: GatewayStack;
  let key: string;

  beforeAll(async () => {
    provider = await startOpenAiSimulator({ apiKey: 'sk-openai-server' });
    optimizerDir = await mkdtemp(join(tmpdir(), 'gw-e2e-optimizer-'));
    optimizer = await startOptimizer(optimizerDir);
    stack = await startGatewayStack({
      GW_OPTIMIZER_URL: optimizer.url,
      GW_OPTIMIZER_TOKEN: optimizerToken,
      GW_OPTIMIZER_TIMEOUT_MS: '2000',
      GW_OPTIMIZER_BREAKER_COOLOFF_MS: '200',
    });
    await stack.admin('PUT', '/admin/v1/providers/openai/key', {
      apiKey: 'sk-openai-server',
      baseUrl: provider.baseURL,
    });
    await stack.admin('PUT', '/admin/v1/routing', { defaultProvider: 'openai' });
    key = await stack.mintClientKey('agent@example.com', 'platform');
  }, 120_000);

  afterAll(async () => {
    await stack?.close();
    await optimizer?.stop('SIGKILL');
    await provider?.close();
    await rm(optimizerDir, { recursive: true, force: true });
  });

  const send = async (body: unknown) =>
    fetch(`${stack.gateway.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  it('elides settled tool outputs of a coding-agent transcript with retrieval handles', async () => {
    const transcript = JSON.parse(
      await readFile(new URL('001-express-res-helpers-regression.json', corpus), 'utf8'),
    ) as Record<string, unknown>;
    const response = await send({ ...transcript, stream: false });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-gw-optimization')).toBe('applied');
    const forwarded = provider.requests.at(-1)!;
    expect(forwarded.body).toMatch(/ctx_[A-Za-z0-9_-]+/);
    expect(forwarded.body.length).toBeLessThan(JSON.stringify(transcript).length);
  });

  it('answers the VS Code optimize route without calling a provider', async () => {
    const before = provider.requests.length;
    const transcript = JSON.parse(
      await readFile(new URL('001-express-res-helpers-regression.json', corpus), 'utf8'),
    ) as Record<string, unknown>;
    const response = await fetch(`${stack.gateway.url}/v1/extensions/vscode/optimize`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ request: transcript }),
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as {
      request: unknown;
      optimization: { status: string; optimizationId: string; estimatedTokensSaved: number; decisions: unknown[] };
    };
    expect(body.optimization.status).toBe('applied');
    expect(body.optimization.optimizationId).toMatch(/^[A-Za-z0-9_-]{1,128}$/);
    expect(body.optimization.estimatedTokensSaved).toBeGreaterThan(0);
    expect(provider.requests.length).toBe(before);
    const rejected = await fetch(`${stack.gateway.url}/v1/extensions/vscode/optimize`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ request: {}, usage: { cost: 1 } }),
    });
    expect(rejected.status).toBe(400);
  });

  it('fails open while the optimizer is down and applies again once it is back, without a gateway restart', async () => {
    const port = new URL(optimizer.url).port;
    const body = { model: 'gpt-4.1', messages: [{ role: 'user', content: 'hello' }] };
    await optimizer.stop('SIGKILL');
    const results = await Promise.all(Array.from({ length: 20 }, () => send(body)));
    expect(results.map((response) => response.status)).toEqual(Array(20).fill(200));
    expect(new Set(results.map((response) => response.headers.get('x-gw-optimization')))).toEqual(new Set(['error']));

    optimizer = await startOptimizer(optimizerDir, port);
    // The failures opened the optimizer's circuit; its next probe, after the short cool-off this stack sets, finds it back.
    let recovered = await send(body);
    while (recovered.headers.get('x-gw-optimization') === 'error') recovered = await send(body);
    expect(recovered.status).toBe(200);
    expect(['applied', 'skipped']).toContain(recovered.headers.get('x-gw-optimization'));
  }, 60_000);
});
