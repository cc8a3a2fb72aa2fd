import { parseArgs } from 'node:util';
import { testDbUrl } from '@gw/testkit';
import type { CountedTargetId, InstructionsOptions } from './run-instructions.js';

export const INSTRUCTIONS_USAGE = `usage: npm run bench -- instructions [options]

Counts the instructions each server executes per request under valgrind's callgrind (apt-get install valgrind):
the same figure whatever else the machine is doing, unlike a timing. ~25 min on 2 cores with the defaults.

  --targets LIST         comma-separated, from bare-proxy, gateway, gateway-pglite (default bare-proxy,gateway)
  --warmup N             uncounted requests per format before counting (default 30000: the JIT settles)
  --requests N           counted requests per format (default 8000)
  --connections N        closed-loop connections (default 50)
  --top N                functions listed per gateway and format (default 25; 0 for none)
  --pg-url URL           Postgres server for the gateway (default GW_TEST_DB_URL or postgres://postgres@127.0.0.1:5432/test)
  --redis-url URL        the Postgres gateway coordinates through this Redis server (a database of its own)
  --gateway-log-level L  GW_LOG_LEVEL of the gateway processes (default info, as deployed)
  --keep-dir DIR         keep the callgrind dumps and perf maps here (callgrind_annotate, KCachegrind); default: removed
  --tiny                 smoke run: 300 requests to warm up, 100 counted, top 5
`;

const TARGETS: readonly CountedTargetId[] = ['bare-proxy', 'gateway', 'gateway-pglite'];

export function parseInstructionsOptions(
  args: readonly string[],
  environment: Record<string, string | undefined>,
): InstructionsOptions {
  const { values } = parseArgs({
    args: [...args],
    strict: true,
    options: {
      targets: { type: 'string' },
      warmup: { type: 'string' },
      requests: { type: 'string' },
      connections: { type: 'string' },
      top: { type: 'string' },
      'pg-url': { type: 'string' },
      'redis-url': { type: 'string' },
      'gateway-log-level': { type: 'string' },
      'keep-dir': { type: 'string' },
      tiny: { type: 'boolean' },
    },
  });
  const tiny = values.tiny === true;
  const integer = (name: string, raw: string | undefined, fallback: number, minimum: number) => {
    if (raw === undefined) return fallback;
    const parsed = Number(raw);
    if (!Number.isInteger(parsed) || parsed < minimum)
      throw new Error(`--${name} must be a whole number ≥ ${minimum}, got ${raw}`);
    return parsed;
  };
  return {
    targets: parseTargets(values.targets ?? 'bare-proxy,gateway'),
    warmupRequests: integer('warmup', values.warmup, tiny ? 300 : 30_000, 0),
    requests: integer('requests', values.requests, tiny ? 100 : 8_000, 1),
    connections: integer('connections', values.connections, 50, 1),
    top: integer('top', values.top, tiny ? 5 : 25, 0),
    pgUrl: values['pg-url'] ?? testDbUrl(environment),
    redisUrl: values['redis-url'] ?? null,
    gatewayLogLevel: values['gateway-log-level'] ?? 'info',
    keepDir: values['keep-dir'] ?? null,
  };
}

function parseTargets(list: string): CountedTargetId[] {
  const names = list.split(',').map((name) => name.trim());
  const unknown = names.filter((name) => !TARGETS.includes(name as CountedTargetId));
  if (unknown.length > 0 || names.length === 0)
    throw new Error(`--targets takes ${TARGETS.join(', ')}; got ${unknown.join(', ') || 'nothing'}`);
  return [...new Set(names as CountedTargetId[])];
}
