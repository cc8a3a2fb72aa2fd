import { DecryptError } from '@gw/platform';
import { describe, expect, it } from 'vitest';
import { OutputVault, maxRetainedOutputBytes, outputVaultOf, truncateOutput } from './output-vault.js';

const key = 'ab'.repeat(32);

describe('remediation output retention', () => {
  it('keeps an output within 8 KiB as it is, and cuts a longer one to its beginning and end on character boundaries', () => {
    expect(truncateOutput('firewall on\n')).toBe('firewall on\n');
    const long = `BEGIN ${'é'.repeat(6000)} ${'x'.repeat(5000)} END`;
    const cut = truncateOutput(long);
    expect(Buffer.byteLength(cut)).toBeLessThanOrEqual(maxRetainedOutputBytes);
    expect(cut.startsWith('BEGIN é')).toBe(true);
    expect(cut.endsWith('x END')).toBe(true);
    expect(cut).toMatch(/… \d+ bytes omitted …/);
    expect(cut).not.toContain('\uFFFD');
  });

  it('opens output only for the execution it was sealed for, and only under its key', () => {
    const vault = new OutputVault(key);
    const sealed = vault.seal('exec-1', 'done');
    expect(sealed).not.toContain('done');
    expect(vault.open('exec-1', sealed)).toBe('done');
    expect(() => vault.open('exec-2', sealed)).toThrow(DecryptError);
    expect(() => new OutputVault('cd'.repeat(32)).open('exec-1', sealed)).toThrow(DecryptError);
  });

  it('is on only with a content key and a content mode other than off', () => {
    expect(outputVaultOf({ GW_CONTENT_KEY: key, GW_CONTENT_MODE: 'full' })).toBeInstanceOf(OutputVault);
    expect(outputVaultOf({ GW_CONTENT_KEY: key, GW_CONTENT_MODE: 'off' })).toBeNull();
    expect(outputVaultOf({ GW_CONTENT_KEY: undefined, GW_CONTENT_MODE: 'full' })).toBeNull();
  });
});
