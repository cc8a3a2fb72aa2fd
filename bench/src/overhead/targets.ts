import { fileURLToPath } from 'node:url';
import { startProcess, type RunningProcess, type StartProcessOptions } from './child-process.js';

export type TargetId = 'simulator' | 'bare-proxy' | 'gateway' | 'gateway-pglite' | 'portkey';

export const TARGET_LABELS: Record<TargetId, string> = {
  simulator: 'simulator (direct)',
  'bare-proxy': 'bare proxy',
  gateway: 'gateway (Postgres)',
  'gateway-pglite': 'gateway (PGlite)',
  portkey: 'Portkey',
};

/** A server under load: its process (measured from /proc) and how to address it. */
export interface Target {
  id: TargetId;
  process: RunningProcess;
  origin: string;
  /** Sent with every request (the credential this target expects). */
  headers: Record<string, string>;
  /** Extra clean-up after the process stops (schemas, temporary folders). */
  dispose(): Promise<void>;
}

/** The server-held provider key: only the proxies know it, clients of the gateway present minted keys. */
export const SERVER_KEY = 'sk-bench-server-held-0000000000';

// Same relative depth from src/overhead/*.ts (tests) and dist/overhead/*.js (the built harness).
export const benchRoot = fileURLToPath(new URL('../../', import.meta.url));
export const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
export const distModule = (relative: string) => `${benchRoot}dist/${relative}`;
export const processEntry = (name: string) => distModule(`processes/${name}.process.js`);

const LISTENING = /listening on http:\/\/127\.0\.0\.1:(\d+)/;

export const originOf = (process: RunningProcess) => `http://127.0.0.1:${process.port}`;

export async function startSimulatorTarget(): Promise<Target> {
  const simulator = await startProcess({
    name: 'simulator',
    entry: processEntry('simulator'),
    args: [SERVER_KEY],
    ready: LISTENING,
  });
  return {
    id: 'simulator',
    process: simulator,
    origin: originOf(simulator),
    headers: jsonHeaders(SERVER_KEY),
    dispose: async () => undefined,
  };
}

/** How a measured server is started besides its own arguments: under a launcher, with Node flags, how patiently. */
export type LaunchOptions = Pick<StartProcessOptions, 'launcher' | 'nodeArgs' | 'timeoutMs'>;

export async function startBareProxyTarget(upstream: string, launch: LaunchOptions = {}): Promise<Target> {
  const proxy = await startProcess({
    ...launch,
    name: 'bare-proxy',
    entry: processEntry('bare-proxy'),
    args: [upstream, SERVER_KEY],
    ready: LISTENING,
  });
  // The proxy swaps in the server-held key; the client's is only there because a client always sends one.
  return {
    id: 'bare-proxy',
    process: proxy,
    origin: originOf(proxy),
    headers: jsonHeaders('sk-client-unused'),
    dispose: async () => undefined,
  };
}

export function jsonHeaders(bearer: string): Record<string, string> {
  return { 'content-type': 'application/json', authorization: `Bearer ${bearer}` };
}
