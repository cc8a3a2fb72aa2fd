import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGatewayStack, type GatewayStack } from './gateway-stack.js';
import { repoRoot } from './process.js';

const run = promisify(execFile);

// The MCP conformance suite's server scenarios that apply to a tools-only server. Its client sends no
// credentials, so the gateway runs in network-trusted identity mode for this test.
const scenarios = ['server-initialize', 'ping', 'tools-list'];

describe('MCP conformance suite against /mcp', () => {
  let stack: GatewayStack;
  let outputDir: string;

  beforeAll(async () => {
    stack = await startGatewayStack();
    expect((await stack.admin('PUT', '/admin/settings/identity', { identityMode: 'network-trusted' })).status).toBe(
      200,
    );
    outputDir = await mkdtemp(join(tmpdir(), 'gw-mcp-conformance-'));
  }, 90_000);

  afterAll(async () => {
    await stack?.close();
    if (outputDir) await rm(outputDir, { recursive: true, force: true });
  });

  it.each(scenarios)(
    'passes %s',
    async (scenario) => {
      const { stdout } = await run(
        process.execPath,
        [
          join(repoRoot, 'node_modules/.bin/conformance'),
          'server',
          '--url',
          `${stack.gateway.url}/mcp`,
          '--scenario',
          scenario,
          '--output-dir',
          outputDir,
        ],
        { timeout: 60_000 },
      );
      expect(stdout).toMatch(/Passed: (\d+)\/\1, 0 failed/);
    },
    90_000,
  );
});
