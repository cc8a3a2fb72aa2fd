import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../kube/kube-api.js';
import { conflictWinner } from './conflicts.js';

const key = (name: string, created: string, provider: string): KubeObject => ({
  apiVersion: 'gw.dev/v1alpha1',
  kind: 'ProviderKey',
  metadata: { name, namespace: 'ns', uid: name, creationTimestamp: created },
  spec: { provider },
});
const claim = (object: KubeObject) => `provider:${(object.spec as { provider: string }).provider}`;

describe('conflictWinner', () => {
  it('lets the oldest claimant win, and answers the same whoever asks', () => {
    const older = key('openai-main', '2026-01-01T00:00:00Z', 'openai');
    const newer = key('openai-2', '2026-01-02T00:00:00Z', 'openai');
    const other = key('anthropic', '2026-01-01T00:00:00Z', 'anthropic');
    const all = [older, newer, other];
    expect(conflictWinner(older, all, claim)).toBeNull();
    expect(conflictWinner(newer, all, claim)).toBe(older);
    expect(conflictWinner(other, all, claim)).toBeNull();
  });

  it('breaks a creation-time tie by name and ignores claimants being deleted', () => {
    const a = key('a', '2026-01-01T00:00:00Z', 'openai');
    const b = key('b', '2026-01-01T00:00:00Z', 'openai');
    expect(conflictWinner(b, [a, b], claim)).toBe(a);
    const deleting = { ...a, metadata: { ...a.metadata, deletionTimestamp: '2026-01-03T00:00:00Z' } };
    expect(conflictWinner(b, [deleting, b], claim)).toBeNull();
  });
});
