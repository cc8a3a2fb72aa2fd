import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { startProcess } from './child-process.js';
import { SERVER_KEY, distModule, type Target } from './targets.js';

/**
 * Where `@portkey-ai/gateway` is installed: `GW_BENCH_PORTKEY_DIR` (a package folder), else resolved from bench/
 * (a devDependency). Null when it is not installed: the peer row is then left out.
 */
export function findPortkey(environment: Record<string, string | undefined>): string | null {
  const override = environment.GW_BENCH_PORTKEY_DIR;
  if (override) return existsSync(join(override, 'build/start-server.js')) ? override : null;
  try {
    return dirname(createRequire(import.meta.url).resolve('@portkey-ai/gateway/package.json'));
  } catch {
    return null;
  }
}

/**
 * The Portkey gateway's Node server (`build/start-server.js --port=N --headless`, the package's `bin`), told per
 * request to forward to the simulator as an OpenAI-compatible custom host (its default trusted custom hosts
 * include 127.0.0.1). It takes the provider key from the client's `Authorization`, as it does in production.
 */
export async function startPortkeyTarget(packageDir: string, upstream: string): Promise<Target> {
  const port = await freePort();
  const portkey = await startProcess({
    name: 'portkey',
    entry: join(packageDir, 'build/start-server.js'),
    args: [`--port=${port}`, '--headless'],
    nodeArgs: ['--import', distModule('processes/peer-preload.js')],
    env: { NODE_ENV: 'production' },
    // It prints its address a second after listening (a start-up spinner), as http://localhost:<port>.
    ready: /running at:[\s\S]*?localhost:(\d+)/,
    timeoutMs: 30_000,
  });
  return {
    id: 'portkey',
    process: portkey,
    origin: `http://127.0.0.1:${port}`,
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${SERVER_KEY}`,
      'x-portkey-provider': 'openai',
      'x-portkey-custom-host': `${upstream}/v1`,
    },
    dispose: async () => undefined,
  };
}

/** Portkey takes a fixed port only: ask the kernel for a free one on loopback. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}
