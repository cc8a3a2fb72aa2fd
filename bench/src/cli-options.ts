import { parseArgs } from 'node:util';
import { testDbUrl } from '@gw/testkit';
import type { OverheadOptions } from './overhead/run-overhead.js';

export const USAGE = `usage: npm run bench -- overhead [options]

  --rounds N             interleaved rounds (default 3)
  --seconds S            length of each closed- and open-loop phase (default 3)
  --warmup-seconds S     discarded load per target before round 1 (default 1)
  --connections N        closed-loop connections (default 50)
  --rate N               open-loop offered requests per second (default 200)
  --serial N             one-at-a-time requests per round and format (default 40)
  --max-requests N       cap on requests in any one phase (default 100000)
  --no-portkey           leave the Portkey peer out even when installed
  --no-pglite            leave the embedded-store (PGlite) gateway row out
  --pg-url URL           Postgres server for the gateway (default GW_TEST_DB_URL or postgres://postgres@127.0.0.1:5432/test)
  --redis-url URL        the Postgres gateway coordinates through this Redis server (GW_REDIS_URL), as replicas do;
                         its keys use the gateway's own names, so give it a database of its own (redis://host/15).
                         Default: in-process coordination, as a single replica
  --gateway-log-level L  GW_LOG_LEVEL of the gateway processes (default info, as deployed)
  --profile-dir DIR      run the gateway processes with --cpu-prof, writing .cpuprofile files to DIR
  --tiny                 smoke run: 1 round, 200 requests per phase, no Portkey, no PGlite
`;

type Options = Omit<OverheadOptions, 'environment' | 'progress'>;

export function parseOverheadOptions(
  args: readonly string[],
  environment: Record<string, string | undefined>,
): Options {
  const { values } = parseArgs({
    args: [...args],
    strict: true,
    options: {
      rounds: { type: 'string' },
      seconds: { type: 'string' },
      'warmup-seconds': { type: 'string' },
      connections: { type: 'string' },
      rate: { type: 'string' },
      serial: { type: 'string' },
      'max-requests': { type: 'string' },
      'no-portkey': { type: 'boolean' },
      'no-pglite': { type: 'boolean' },
      'pg-url': { type: 'string' },
      'redis-url': { type: 'string' },
      'gateway-log-level': { type: 'string' },
      'profile-dir': { type: 'string' },
      tiny: { type: 'boolean' },
    },
  });
  const tiny = values.tiny === true;
  const number = (name: string, raw: string | undefined, fallback: number, minimum: number) => {
    if (raw === undefined) return fallback;
    const parsed = Number(raw);
    if (!Number.isFinite(parsed) || parsed < minimum)
      throw new Error(`--${name} must be a number ≥ ${minimum}, got ${raw}`);
    return parsed;
  };
  return {
    rounds: Math.floor(number('rounds', values.rounds, tiny ? 1 : 3, 1)),
    phaseMs: Math.round(number('seconds', values.seconds, tiny ? 0.5 : 3, 0.1) * 1000),
    warmupMs: Math.round(number('warmup-seconds', values['warmup-seconds'], tiny ? 0.2 : 1, 0) * 1000),
    connections: Math.floor(number('connections', values.connections, 50, 1)),
    rate: number('rate', values.rate, 200, 1),
    serialRequests: Math.floor(number('serial', values.serial, tiny ? 20 : 40, 1)),
    maxRequests: Math.floor(number('max-requests', values['max-requests'], tiny ? 200 : 100_000, 1)),
    portkey: !tiny && values['no-portkey'] !== true,
    pglite: !tiny && values['no-pglite'] !== true,
    pgUrl: values['pg-url'] ?? testDbUrl(environment),
    redisUrl: values['redis-url'] ?? null,
    gatewayLogLevel: values['gateway-log-level'] ?? 'info',
    gatewayNodeArgs: values['profile-dir'] ? ['--cpu-prof', `--cpu-prof-dir=${values['profile-dir']}`] : [],
  };
}
