import { describe, expect, it } from 'vitest';
import { parseInstructionsOptions } from './options.js';

describe('parseInstructionsOptions', () => {
  it('defaults to the bare proxy and the Postgres gateway, 30,000 requests to warm up and 8,000 counted', () => {
    expect(parseInstructionsOptions([], {})).toEqual({
      targets: ['bare-proxy', 'gateway'],
      warmupRequests: 30_000,
      requests: 8_000,
      connections: 50,
      top: 25,
      pgUrl: 'postgres://postgres@127.0.0.1:5432/test',
      redisUrl: null,
      gatewayLogLevel: 'info',
      keepDir: null,
    });
  });

  it('shrinks for --tiny and takes the Postgres server from GW_TEST_DB_URL', () => {
    expect(parseInstructionsOptions(['--tiny'], { GW_TEST_DB_URL: 'postgres://elsewhere/db' })).toMatchObject({
      warmupRequests: 300,
      requests: 100,
      top: 5,
      pgUrl: 'postgres://elsewhere/db',
    });
  });

  it('takes a target list once each, in the order given', () => {
    expect(parseInstructionsOptions(['--targets', 'gateway-pglite, bare-proxy,gateway-pglite'], {}).targets).toEqual([
      'gateway-pglite',
      'bare-proxy',
    ]);
  });

  it.each([
    [['--targets', 'portkey'], /--targets takes bare-proxy, gateway, gateway-pglite; got portkey/],
    [['--requests', '0'], /--requests must be a whole number ≥ 1, got 0/],
    [['--warmup', '1.5'], /--warmup must be a whole number ≥ 0, got 1.5/],
    [['--top', 'many'], /--top must be a whole number ≥ 0, got many/],
    [['--seconds', '3'], /Unknown option '--seconds'/],
  ])('refuses %j', (args, message) => {
    expect(() => parseInstructionsOptions(args, {})).toThrow(message);
  });
});
