import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { gatewayUrlFor, loadOperatorConfig } from './config.js';
import { createHealthServer } from './health-server.js';
import { OperatorMetrics } from './runtime/metrics.js';

describe('health server', () => {
  it('serves /healthz and Prometheus /metrics, and turns unhealthy on request', async () => {
    const metrics = new OperatorMetrics();
    metrics.leader.set(1);
    let healthy = true;
    const server = createHealthServer(metrics, { healthy: () => healthy });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    expect(await (await fetch(`${base}/metrics`)).text()).toContain('gw_operator_leader 1');
    healthy = false;
    expect((await fetch(`${base}/healthz`)).status).toBe(503);
    expect((await fetch(`${base}/other`)).status).toBe(404);
    await new Promise((resolve) => server.close(resolve));
  });
});

describe('loadOperatorConfig', () => {
  it('reads the chart-provided environment', () => {
    const config = loadOperatorConfig({
      GW_OPERATOR_WATCH_NAMESPACES: 'team-a, team-b',
      GW_OPERATOR_LEADER_ELECTION: 'false',
      GW_OPERATOR_RESYNC_SECONDS: '60',
    });
    expect(config.GW_OPERATOR_WATCH_NAMESPACES).toEqual(['team-a', 'team-b']);
    expect(config.GW_OPERATOR_LEADER_ELECTION).toBe(false);
    expect(config.GW_OPERATOR_RESYNC_SECONDS).toBe(60);
    expect(config.GW_OPERATOR_METRICS_PORT).toBe(8080);
  });

  it('names each bad variable', () => {
    expect(() => loadOperatorConfig({ GW_OPERATOR_RESYNC_SECONDS: '5' })).toThrow(
      /GW_OPERATOR_RESYNC_SECONDS: must be at least 30/,
    );
    expect(() => loadOperatorConfig({ GW_OPERATOR_GATEWAY_URLS: 'http://gw-gateway.team.svc:8787' })).toThrow(
      /GW_OPERATOR_GATEWAY_URLS: "http:\/\/gw-gateway.team.svc:8787" is not <in-cluster URL>=<URL to use>/,
    );
    expect(() => loadOperatorConfig({ GW_OPERATOR_GATEWAY_URLS: 'ftp://a=http://b' })).toThrow(
      /GW_OPERATOR_GATEWAY_URLS/,
    );
  });

  it('sends calls for an overridden gateway Service where the override says, and others to the Service', () => {
    const { GW_OPERATOR_GATEWAY_URLS: overrides } = loadOperatorConfig({
      GW_OPERATOR_GATEWAY_URLS:
        'http://gw-gateway.team.svc:8787=http://127.0.0.1:18787/, http://b-gateway.x.svc:8787=https://b.example.com',
    });
    expect(gatewayUrlFor(overrides, 'http://gw-gateway.team.svc:8787')).toBe('http://127.0.0.1:18787');
    expect(gatewayUrlFor(overrides, 'http://b-gateway.x.svc:8787')).toBe('https://b.example.com');
    expect(gatewayUrlFor(overrides, 'http://other-gateway.team.svc:8787')).toBe('http://other-gateway.team.svc:8787');
    expect(gatewayUrlFor(loadOperatorConfig({}).GW_OPERATOR_GATEWAY_URLS, 'http://gw-gateway.team.svc:8787')).toBe(
      'http://gw-gateway.team.svc:8787',
    );
  });
});
