import { describe, expect, it } from 'vitest';
import { ConfigError, generateEd25519KeyPair, ed25519PublicKey, pinnedLeaseKeys } from '@gw/platform';
import { loadOptimizerConfig, optimizerHelp } from '../src/config.js';

function problemsOf(environment: Record<string, string>): string {
  try {
    loadOptimizerConfig(environment);
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    throw error;
  }
  return '';
}

describe('optimizer configuration', () => {
  it('defaults to port 8088, a 32 MiB body limit, open hooks and no durable content', () => {
    const config = loadOptimizerConfig({});
    expect(config).toMatchObject({
      GW_OPTIMIZER_PORT: 8088,
      GW_OPTIMIZER_MAX_BODY_BYTES: 33_554_432,
      GW_OPTIMIZER_STASH_WRITE_TIMEOUT_MS: 250,
      GW_DATA_DIR: './.gw-data',
      GW_OPTIMIZER_TENANT_TOKENS: [],
    });
    expect(config.GW_CONTENT_KEY).toBeUndefined();
    expect(config.GW_OPTIMIZER_VERIFY_KEY).toBeUndefined();
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('names the variable of every bad value', () => {
    const message = problemsOf({
      GW_CONTENT_KEY: 'abc',
      GW_OPTIMIZER_PORT: '99999',
      GW_SPEND_DB_URL: 'mysql://x',
      GW_OPTIMIZER_VERIFY_KEY: 'short',
      GW_OPTIMIZER_TENANT_TOKENS: 'acme',
    });
    for (const variable of [
      'GW_CONTENT_KEY',
      'GW_OPTIMIZER_PORT',
      'GW_SPEND_DB_URL',
      'GW_OPTIMIZER_VERIFY_KEY',
      'GW_OPTIMIZER_TENANT_TOKENS',
    ])
      expect(message).toContain(variable);
  });

  it('reads the verify key as raw base64url or PEM, and tenant tokens as pairs', () => {
    const pair = generateEd25519KeyPair();
    const pem = ed25519PublicKey(pair.publicKey).export({ format: 'pem', type: 'spki' }).toString();
    const raw = loadOptimizerConfig({ GW_OPTIMIZER_VERIFY_KEY: pair.publicKey }).GW_OPTIMIZER_VERIFY_KEY;
    const fromPem = loadOptimizerConfig({ GW_OPTIMIZER_VERIFY_KEY: pem }).GW_OPTIMIZER_VERIFY_KEY;
    expect(raw?.equals(fromPem as NonNullable<typeof fromPem>)).toBe(true);
    expect(
      loadOptimizerConfig({ GW_OPTIMIZER_TENANT_TOKENS: 'acme=aaaaaaaaaaaaaaaa1, globex=bbbbbbbbbbbbbbbb2' })
        .GW_OPTIMIZER_TENANT_TOKENS,
    ).toEqual([
      { tenant: 'acme', token: 'aaaaaaaaaaaaaaaa1' },
      { tenant: 'globex', token: 'bbbbbbbbbbbbbbbb2' },
    ]);
  });

  it('reads the deployment id and an extra lease verify key, and refuses a malformed or pinned-id key', () => {
    const pair = generateEd25519KeyPair();
    const config = loadOptimizerConfig({
      GW_DEPLOYMENT_ID: 'dep-1',
      GW_LEASE_VERIFY_KEY: `ops-2026:${pair.publicKey}`,
    });
    expect(config.GW_DEPLOYMENT_ID).toBe('dep-1');
    expect(config.GW_LEASE_VERIFY_KEY).toEqual({ keyId: 'ops-2026', publicKey: pair.publicKey });
    expect(loadOptimizerConfig({}).GW_LEASE_VERIFY_KEY).toBeUndefined();
    expect(problemsOf({ GW_DEPLOYMENT_ID: 'd'.repeat(129) })).toContain('GW_DEPLOYMENT_ID');
    expect(problemsOf({ GW_DEPLOYMENT_ID: 'dep 1' })).toContain('GW_DEPLOYMENT_ID');
    expect(problemsOf({ GW_LEASE_VERIFY_KEY: pair.publicKey })).toContain('GW_LEASE_VERIFY_KEY');
    const pinnedId = Object.keys(pinnedLeaseKeys)[0];
    expect(problemsOf({ GW_LEASE_VERIFY_KEY: `${pinnedId}:${pair.publicKey}` })).toMatch(/GW_LEASE_VERIFY_KEY.*pinned/);
  });

  it('documents every variable it reads in --help', () => {
    for (const variable of [
      'GW_DEPLOYMENT_ID',
      'GW_LEASE_VERIFY_KEY',
      'GW_OPTIMIZER_PORT',
      'GW_OPTIMIZER_TOKEN',
      'GW_OPTIMIZER_TENANT_TOKENS',
      'GW_ADMIN_TOKEN',
      'GW_CONTENT_KEY',
      'GW_SPEND_DB_URL',
      'GW_OBSERVABILITY_DB_URL',
      'GW_DATA_DIR',
      'GW_REDIS_URL',
      'GW_OPTIMIZER_MAX_BODY_BYTES',
      'GW_OPTIMIZER_VERIFY_KEY',
      'GW_LOG_LEVEL',
    ]) {
      expect(optimizerHelp).toContain(variable);
    }
  });
});
