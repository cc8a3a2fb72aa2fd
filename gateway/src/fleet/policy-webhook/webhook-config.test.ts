import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readWebhookConfig } from './webhook-config.js';

describe('reading the failing-policies webhook configuration', () => {
  let directory: string;
  const secret = 'a-webhook-secret-of-at-least-32-chars';
  const file = async (name: string, content: string) => {
    const path = join(directory, name);
    await writeFile(path, content);
    return path;
  };

  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'gw-webhook-config-'));
  });
  afterAll(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  it('reads a valid file and fills the default cooldown', async () => {
    const path = await file('ok.json', JSON.stringify({ secret, policies: { 'Firewall enabled': 'macos-firewall' } }));
    expect(await readWebhookConfig(path)).toEqual({
      kind: 'ready',
      config: { secret, cooldownSeconds: 3600, policies: { 'Firewall enabled': 'macos-firewall' } },
    });
  });

  it('tells absent from unreadable, and never repeats the content in the reason', async () => {
    expect(await readWebhookConfig(undefined)).toEqual({ kind: 'absent' });
    expect(await readWebhookConfig(join(directory, 'missing.json'))).toEqual({ kind: 'absent' });
    const cases: Array<[string, string]> = [
      ['not-json.json', `{"secret": "${secret}"`],
      ['short.json', JSON.stringify({ secret: 'hunter2', policies: {} })],
      ['cooldown.json', JSON.stringify({ secret, cooldownSeconds: 5, policies: {} })],
      ['extra.json', JSON.stringify({ secret, policies: {}, apiToken: 'hunter2' })],
      ['check.json', JSON.stringify({ secret, policies: { p: 'a/b' } })],
      ['huge.json', JSON.stringify({ secret, policies: {}, padding: 'x'.repeat(300 * 1024) })],
    ];
    for (const [name, content] of cases) {
      const state = await readWebhookConfig(await file(name, content));
      expect(state.kind, name).toBe('unreadable');
      expect(JSON.stringify(state), name).not.toMatch(/hunter2|a-webhook-secret/);
    }
  });

  it('reports a path it cannot read as a file as unreadable', async () => {
    expect(await readWebhookConfig(directory)).toEqual({ kind: 'unreadable', reason: 'cannot be read (EISDIR)' });
  });
});
