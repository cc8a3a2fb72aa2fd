import { describe, expect, it } from 'vitest';
import { readConfig } from './config.js';

describe('gateway configuration', () => {
  it('takes trusted proxies as addresses and CIDR ranges, IPv4 and IPv6, and refuses anything else', () => {
    expect(readConfig({ GW_TRUSTED_PROXIES: '10.0.0.0/8, 127.0.0.1' }).GW_TRUSTED_PROXIES).toEqual(['10.0.0.0/8', '127.0.0.1']);
    expect(readConfig({ GW_TRUSTED_PROXIES: '::1,fd00::/8' }).GW_TRUSTED_PROXIES).toEqual(['::1', 'fd00::/8']);
    expect(readConfig({}).GW_TRUSTED_PROXIES).toBeUndefined();
    for (const bad of ['10.0.0.0/33', 'ingress.internal', '10.0.0.1/8/2', ',']) expect(() => readConfig({ GW_TRUSTED_PROXIES: bad }), bad).toThrow(/GW_TRUSTED_PROXIES/);
  });
});

describe('the OpenTelemetry exporter variables', () => {
  it('reads the standard names, percent-decodes header values and refuses grpc with a clear message', () => {
    const config = readConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_EXPORTER_OTLP_HEADERS: 'api-key=a%3Db, x-tenant = acme' });
    expect(config.OTEL_EXPORTER_OTLP_HEADERS).toEqual({ 'api-key': 'a=b', 'x-tenant': 'acme' });
    expect(config.OTEL_TRACES_EXPORTER).toBe('otlp');
    expect(() => readConfig({ OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })).toThrow(/grpc is not supported/);
    expect(() => readConfig({ OTEL_EXPORTER_OTLP_HEADERS: 'no pair here' })).toThrow(/name=value/);
  });
});
