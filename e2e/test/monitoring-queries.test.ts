import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { parseAllDocuments, stringify } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureKubeTools } from '@gw/operator/kube-test-server';
import { startOpenAiSimulator, type SimulatorHandle, createIsolatedPgDb, testDbUrl } from '@gw/testkit';
import { freePort } from './containers.js';
import { startGatewayStack, type GatewayStack } from './gateway-stack.js';
import { repoRoot } from './process.js';
import { startScrapeRelay, type ScrapeRelay } from './scrape-relay.js';

// The gw-operator chart's stack alerts and Grafana dashboard, checked where they run: promtool checks the rules, a
// real Prometheus (Debian's package) loads them and scrapes a real gateway, every rule and panel query is run there,
// and every gw metric they name must be one the gateway exports, so renaming a metric fails this test.

const run = promisify(execFile);

interface RuleGroup {
  name: string;
  rules: { alert: string; expr: string }[];
}
interface Dashboard {
  panels: { title: string; targets: { expr: string }[] }[];
}

async function query(base: string, expression: string): Promise<{ status: string; error?: string }> {
  const response = await fetch(`${base}/api/v1/query?query=${encodeURIComponent(expression)}`);
  return (await response.json()) as { status: string; error?: string };
}

/** Metric names a query reads, with histogram and summary suffixes folded onto the family name. */
function metricFamilies(expression: string): string[] {
  const withoutLabels = expression.replace(/\{[^}]*\}/g, '').replace(/\b(by|without)\s*\([^)]*\)/g, '');
  return [...withoutLabels.matchAll(/\b(?:gw|gen_ai)_[a-z_]+\b/g)].map(([name]) =>
    name.replace(/_(bucket|sum|count)$/, ''),
  );
}

describe('stack alerts and dashboard', () => {
  let provider: SimulatorHandle;
  let stack: GatewayStack;
  let prometheus: ChildProcess;
  let prometheusUrl: string;
  let workDir: string;
  let groups: RuleGroup[];
  let dashboard: Dashboard;
  let promtool: string;
  let dashboardLabels: Record<string, string>;
  let relay: ScrapeRelay | undefined;
  let database: Awaited<ReturnType<typeof createIsolatedPgDb>>;

  beforeAll(async () => {
    const binary =
      execFileSync('bash', [join(repoRoot, 'e2e/scripts/prometheus.sh')], { encoding: 'utf8', timeout: 300_000 })
        .trim()
        .split('\n')
        .at(-1) ?? '';
    promtool = join(dirname(binary), 'promtool');
    const { helm } = await ensureKubeTools();
    const rendered = await run(
      helm,
      [
        'template',
        'release',
        join(repoRoot, 'charts/gw-operator'),
        '--namespace',
        'gw-system',
        '--set',
        'stackMonitoring.prometheusRule.enabled=true',
        '--set',
        'stackMonitoring.grafanaDashboard.enabled=true',
      ],
      { maxBuffer: 32 * 1024 * 1024 },
    );
    const manifests = parseAllDocuments(rendered.stdout).map(
      (document) =>
        document.toJS() as {
          kind?: string;
          metadata?: { name: string; labels?: Record<string, string> };
          spec?: { groups: RuleGroup[] };
          data?: Record<string, string>;
        } | null,
    );
    groups =
      manifests.find((manifest) => manifest?.kind === 'PrometheusRule' && manifest.metadata?.name.endsWith('-stack'))
        ?.spec?.groups ?? [];
    const configMap = manifests.find(
      (manifest) => manifest?.kind === 'ConfigMap' && manifest.metadata?.name.endsWith('-dashboard'),
    );
    dashboardLabels = configMap?.metadata?.labels ?? {};
    dashboard = JSON.parse(configMap?.data?.['gw-stack.json'] ?? '{}') as Dashboard;

    provider = await startOpenAiSimulator({ apiKey: 'sk-openai-server' });
    database = await createIsolatedPgDb(testDbUrl(process.env));
    stack = await startGatewayStack({
      GW_SPEND_DB_URL: `${database.url}?options=${encodeURIComponent(`-c search_path=${database.schema}`)}`,
      GW_KEYSTORE_KEY: 'b2'.repeat(32),
    });
    await stack.admin('PUT', '/admin/v1/providers/openai/key', {
      apiKey: 'sk-openai-server',
      baseUrl: provider.baseURL,
    });
    await stack.admin('PUT', '/admin/v1/routing', { defaultProvider: 'openai' });
    const key = await stack.mintClientKey();
    await fetch(`${stack.gateway.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4.1', messages: [{ role: 'user', content: 'hello' }] }),
    });

    workDir = await mkdtemp(join(tmpdir(), 'gw-monitoring-'));
    await writeFile(join(workDir, 'rules.yml'), stringify({ groups }));
    relay = await startScrapeRelay(stack.gateway.url);
    const target = relay.target;
    await writeFile(
      join(workDir, 'prometheus.yml'),
      `global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\nrule_files: ['${join(workDir, 'rules.yml')}']\nscrape_configs:\n  - job_name: gw-gateway\n    static_configs:\n      - targets: ['${target}']\n`,
    );
    const port = await freePort();
    prometheusUrl = `http://127.0.0.1:${port}`;
    prometheus = spawn(
      binary,
      [
        `--config.file=${join(workDir, 'prometheus.yml')}`,
        `--storage.tsdb.path=${join(workDir, 'tsdb')}`,
        `--web.listen-address=127.0.0.1:${port}`,
      ],
      { stdio: 'ignore' },
    );
    // The second scrape's start means Prometheus is up and the first scrape's samples are committed.
    await relay.scrapes(2);
    expect((await query(prometheusUrl, 'gw_requests_total')).status).toBe('success');
  }, 360_000);

  afterAll(async () => {
    prometheus?.kill('SIGTERM');
    await relay?.close();
    await stack?.close();
    await provider?.close();
    await database?.dispose();
    if (workDir) await rm(workDir, { recursive: true, force: true });
  });

  it('passes promtool and every rule evaluates without error in Prometheus', async () => {
    expect(groups.flatMap((group) => group.rules.map((rule) => rule.alert))).toEqual([
      'GwGatewayErrorRate',
      'GwGatewayLatencyP99',
      'GwSpendWriteFailures',
      'GwSpendSpilledOrDropped',
      'GwOptimizerFailOpen',
      'GwBudgetsExhausted',
    ]);
    const checked = await run(promtool, ['check', 'rules', join(workDir, 'rules.yml')]);
    expect(checked.stdout).toMatch(/SUCCESS: 6 rules found/);
    const health = async () => {
      const body = (await (await fetch(`${prometheusUrl}/api/v1/rules`)).json()) as {
        data: { groups: { rules: { name: string; health: string; lastError?: string }[] }[] };
      };
      return body.data.groups.flatMap((group) =>
        group.rules.map((rule) => `${rule.name}:${rule.health}${rule.lastError ? ` ${rule.lastError}` : ''}`),
      );
    };
    // Prometheus evaluates rules on its own timer and tells no one: its rules API is the only signal, so this
    // reads it (bounded) until every rule has had its first evaluation.
    await expect
      .poll(health, { timeout: 30_000 })
      .toEqual([
        'GwGatewayErrorRate:ok',
        'GwGatewayLatencyP99:ok',
        'GwSpendWriteFailures:ok',
        'GwSpendSpilledOrDropped:ok',
        'GwOptimizerFailOpen:ok',
        'GwBudgetsExhausted:ok',
      ]);
  }, 60_000);

  it('runs every rule and dashboard query, and reads only metrics the gateway exports', async () => {
    const expressions = [
      ...groups.flatMap((group) => group.rules.map((rule) => rule.expr)),
      ...dashboard.panels.flatMap((panel) => panel.targets.map((target) => target.expr)),
    ];
    expect(dashboard.panels.length).toBeGreaterThanOrEqual(10);
    for (const expression of expressions)
      expect(await query(prometheusUrl, expression), expression).toEqual(
        expect.objectContaining({ status: 'success' }),
      );

    const exported = new Set(
      [...(await (await fetch(`${stack.gateway.url}/metrics`)).text()).matchAll(/^# TYPE (\S+) /gm)].map(
        ([, name]) => name,
      ),
    );
    const unknown = [...new Set(expressions.flatMap(metricFamilies))].filter((family) => !exported.has(family));
    expect(unknown).toEqual([]);
  }, 60_000);

  it('ships the dashboard file the chart renders, labelled for the Grafana sidecar', async () => {
    expect(dashboardLabels.grafana_dashboard).toBe('1');
    const file = JSON.parse(
      await readFile(join(repoRoot, 'charts/gw-operator/dashboards/gw-stack.json'), 'utf8'),
    ) as Dashboard;
    expect(file).toEqual(dashboard);
  });
});
