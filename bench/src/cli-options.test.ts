import { describe, expect, it } from 'vitest';
import { parseOverheadOptions } from './cli-options.js';

describe('parseOverheadOptions', () => {
  it('defaults to three interleaved rounds of 3 s phases at 50 connections and 200 req/s, Portkey and PGlite included', () => {
    expect(parseOverheadOptions([], {})).toMatchObject({
      rounds: 3,
      phaseMs: 3000,
      connections: 50,
      rate: 200,
      portkey: true,
      pglite: true,
      redisUrl: null,
      gatewayLogLevel: 'info',
      gatewayNodeArgs: [],
    });
  });

  it('coordinates the Postgres gateway through --redis-url when given', () => {
    expect(parseOverheadOptions(['--redis-url', 'redis://127.0.0.1:6379/15'], {}).redisUrl).toBe(
      'redis://127.0.0.1:6379/15',
    );
  });

  it('shrinks to one bounded round without the optional rows for --tiny', () => {
    expect(parseOverheadOptions(['--tiny'], {})).toMatchObject({
      rounds: 1,
      maxRequests: 200,
      portkey: false,
      pglite: false,
    });
  });

  it('takes the Postgres server from GW_TEST_DB_URL and profiles the gateway into --profile-dir', () => {
    const options = parseOverheadOptions(['--profile-dir', '/tmp/profiles'], {
      GW_TEST_DB_URL: 'postgres://elsewhere/db',
    });
    expect(options.pgUrl).toBe('postgres://elsewhere/db');
    expect(options.gatewayNodeArgs).toEqual(['--cpu-prof', '--cpu-prof-dir=/tmp/profiles']);
  });

  it('rejects unknown flags and nonsense numbers', () => {
    expect(() => parseOverheadOptions(['--turbo'], {})).toThrow();
    expect(() => parseOverheadOptions(['--rounds', '0'], {})).toThrow('--rounds must be a number ≥ 1, got 0');
  });
});
