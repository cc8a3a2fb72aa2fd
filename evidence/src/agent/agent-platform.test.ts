import { describe, expect, it } from 'vitest';
import { hostPlatformOf } from './agent-platform.js';

describe('hostPlatformOf', () => {
  it('maps osquery platforms to the pack’s, Linux distributions to linux, and anything else to unknown', () => {
    expect(hostPlatformOf('darwin')).toBe('darwin');
    expect(hostPlatformOf('Windows')).toBe('windows');
    expect(hostPlatformOf('ubuntu')).toBe('linux');
    expect(hostPlatformOf('rhel')).toBe('linux');
    expect(hostPlatformOf('freebsd')).toBe('unknown');
    expect(hostPlatformOf(undefined, '  ', 'darwin')).toBe('darwin');
    expect(hostPlatformOf()).toBe('unknown');
  });
});
