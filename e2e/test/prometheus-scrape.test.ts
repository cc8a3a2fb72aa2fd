import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAiSimulator, type SimulatorHandle } from '@gw/testkit';
import { startGatewayStack, type GatewayStack } from './gateway-stack.js';
import { repoRoot } from './process.js';
import { startScrapeRelay, type ScrapeRelay } from './scrape-relay.js';
import { freeLoopbackPort as freePort } from '@gw/testkit';

async function query(
  base: string,
  expression: string,
): Promise<Array<{ metric: Record<string, string>; value: [number, string] }>> {
  const response = await fetch(`${base}/api/v1/query?query=${encodeURIComponent(expression)}`);
  const body = (await response.json()) as {
    data?: { result?: Array<{ metric: Record<string, string>; value: [number, string] }> };
  };
  return body.data?.result ?? [];
}

// the gateway's /metrics scraped by a real Prometheus server (Debian's package, fetched by a script).
describe('Prometheus scrapes the gateway', () => {
  let provider: SimulatorHandle;
  let stack: GatewayStack;
  let prometheus: ChildProcess;
  let prometheusUrl: string;
  let dataDir: string;
  let relay: ScrapeRelay | undefined;

  beforeAll(async () => {
    const binary = execFileSync('bash', [join(repoRoot, 'e2e/scripts/prometheus.sh')], {
      encoding: 'utf8',
      timeout: 300_000,
    })
      .trim()
      .split('\n')
      .at(-1) as string;
    provider = await startOpenAiSimulator({ apiKey: 'sk-openai-server' });
    stack = await startGatewayStack();
    await stack.admin('PUT', '/admin/v1/providers/openai/key', {
      apiKey: 'sk-openai-server',
      baseUrl: provider.baseURL,
    });
    await stack.admin('PUT', '/admin/v1/routing', { defaultProvider: 'openai' });
    const key = await stack.mintClientKey();
    for (let index = 0; index < 5; index += 1) {
      await fetch(`${stack.gateway.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'gpt-4.1', messages: [{ role: 'user', content: `hello ${index}` }] }),
      });
    }
    dataDir = await mkdtemp(join(tmpdir(), 'gw-prometheus-'));
    relay = await startScrapeRelay(stack.gateway.url);
    const target = relay.target;
    await writeFile(
      join(dataDir, 'prometheus.yml'),
      `global:\n  scrape_interval: 1s\nscrape_configs:\n  - job_name: gw-gateway\n    static_configs:\n      - targets: ['${target}']\n`,
    );
    const port = await freePort();
    prometheusUrl = `http://127.0.0.1:${port}`;
    prometheus = spawn(
      binary,
      [
        `--config.file=${join(dataDir, 'prometheus.yml')}`,
        `--storage.tsdb.path=${join(dataDir, 'tsdb')}`,
        `--web.listen-address=127.0.0.1:${port}`,
      ],
      { stdio: 'ignore' },
    );
  }, 360_000);

  afterAll(async () => {
    prometheus?.kill('SIGTERM');
    await relay?.close();
    await stack?.close();
    await provider?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('collects the request, token, latency and spend-queue series', async () => {
    // The second scrape's start means the first one's samples are committed and queryable.
    await relay?.scrapes(2);
    const requests = await query(prometheusUrl, 'gw_requests_total{endpoint="/v1/chat/completions"}');
    expect(requests.length).toBeGreaterThan(0);
    expect(requests[0]?.metric).toMatchObject({
      job: 'gw-gateway',
      provider: 'openai',
      model: 'gpt-4.1',
      status: '200',
    });
    expect(Number(requests[0]?.value[1])).toBe(5);
    for (const series of [
      'gen_ai_client_token_usage_bucket',
      'gen_ai_server_request_duration_seconds_count',
      'gw_overhead_latency_seconds_count',
      'gw_spend_queue_depth',
      'up',
    ]) {
      expect((await query(prometheusUrl, series)).length, series).toBeGreaterThan(0);
    }
  }, 60_000);
});
