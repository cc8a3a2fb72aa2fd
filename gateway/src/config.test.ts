import { describe, expect, it } from 'vitest';
import { readConfig } from './config.js';

describe('gateway configuration', () => {
  it('takes trusted proxies as addresses and CIDR ranges, IPv4 and IPv6, and refuses anything else', () => {
    expect(readConfig({ GW_TRUSTED_PROXIES: '10.0.0.0/8, 127.0.0.1' }).GW_TRUSTED_PROXIES).toEqual([
      '10.0.0.0/8',
      '127.0.0.1',
    ]);
    expect(readConfig({ GW_TRUSTED_PROXIES: '::1,fd00::/8' }).GW_TRUSTED_PROXIES).toEqual(['::1', 'fd00::/8']);
    expect(readConfig({}).GW_TRUSTED_PROXIES).toBeUndefined();
    for (const bad of ['10.0.0.0/33', 'ingress.internal', '10.0.0.1/8/2', ','])
      expect(() => readConfig({ GW_TRUSTED_PROXIES: bad }), bad).toThrow(/GW_TRUSTED_PROXIES/);
  });

  it('bounds slow clients by default, and refuses timeouts that cannot work', () => {
    expect(readConfig({})).toMatchObject({
      GW_HEADERS_TIMEOUT_MS: 10_000,
      GW_REQUEST_TIMEOUT_MS: 30_000,
      GW_KEEP_ALIVE_TIMEOUT_MS: 5_000,
      GW_UNAUTHENTICATED_CONNECTIONS_PER_ADDRESS: 256,
    });
    expect(
      readConfig({ GW_UNAUTHENTICATED_CONNECTIONS_PER_ADDRESS: '0' }).GW_UNAUTHENTICATED_CONNECTIONS_PER_ADDRESS,
    ).toBe(0);
    expect(() => readConfig({ GW_HEADERS_TIMEOUT_MS: '20000', GW_REQUEST_TIMEOUT_MS: '10000' })).toThrow(
      /GW_HEADERS_TIMEOUT_MS.*must not exceed GW_REQUEST_TIMEOUT_MS/,
    );
    for (const [name, value] of [
      ['GW_REQUEST_TIMEOUT_MS', '0'],
      ['GW_HEADERS_TIMEOUT_MS', '999'],
      ['GW_KEEP_ALIVE_TIMEOUT_MS', '0'],
      ['GW_UNAUTHENTICATED_CONNECTIONS_PER_ADDRESS', '-1'],
    ] as const) {
      expect(() => readConfig({ [name]: value }), name).toThrow(new RegExp(name));
    }
  });

  it('configures the optimizer circuit breaker, refusing a threshold of zero', () => {
    expect(readConfig({})).toMatchObject({ GW_OPTIMIZER_BREAKER_FAILURES: 3, GW_OPTIMIZER_BREAKER_COOLOFF_MS: 10_000 });
    expect(() => readConfig({ GW_OPTIMIZER_BREAKER_FAILURES: '0' })).toThrow(/GW_OPTIMIZER_BREAKER_FAILURES/);
    expect(() => readConfig({ GW_OPTIMIZER_BREAKER_COOLOFF_MS: '50' })).toThrow(/GW_OPTIMIZER_BREAKER_COOLOFF_MS/);
  });
});

describe('the OpenTelemetry exporter variables', () => {
  it('reads the standard names, percent-decodes header values and refuses grpc with a clear message', () => {
    const config = readConfig({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
      OTEL_EXPORTER_OTLP_HEADERS: 'api-key=a%3Db, x-tenant = acme',
    });
    expect(config.OTEL_EXPORTER_OTLP_HEADERS).toEqual({ 'api-key': 'a=b', 'x-tenant': 'acme' });
    expect(config.OTEL_TRACES_EXPORTER).toBe('otlp');
    expect(() => readConfig({ OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })).toThrow(/grpc is not supported/);
    expect(() => readConfig({ OTEL_EXPORTER_OTLP_HEADERS: 'no pair here' })).toThrow(/name=value/);
  });
});
