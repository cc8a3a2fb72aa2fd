import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { capabilities } from './capabilities.js';
import { roleCapabilities, roles, roleTable } from './roles.js';
import {
  isGrantableCapability,
  isGrantableScope,
  isKnownScope,
  scopeCatalog,
  scopeExceptions,
  scopesForCapabilities,
  scopesOfCapability,
} from './scopes.js';

describe('roles', () => {
  it('grant capabilities cumulatively from viewer to owner', () => {
    for (let index = 1; index < roles.length; index += 1) {
      const lower = roleCapabilities(roles[index - 1]);
      const higher = roleCapabilities(roles[index]);
      for (const capability of lower) expect(higher.has(capability)).toBe(true);
      expect(higher.size).toBeGreaterThan(lower.size);
    }
    expect([...roleCapabilities('owner')].sort()).toEqual([...capabilities].sort());
  });

  it('give adminkeys:manage to security_admin and up only', () => {
    expect(roles.filter((role) => roleCapabilities(role).has('adminkeys:manage'))).toEqual(['security_admin', 'owner']);
  });

  it('give the audit lane to auditors and up, not to viewers', () => {
    expect(scopesForCapabilities(roleCapabilities('viewer')).has('audit:read')).toBe(false);
    expect(scopesForCapabilities(roleCapabilities('auditor')).has('audit:read')).toBe(true);
  });

  it('let the owner reach every scope in the catalog', () => {
    expect([...scopesForCapabilities(roleCapabilities('owner'))].sort()).toEqual([...scopeCatalog]);
  });
});

describe('capability → scope translation', () => {
  it('makes config:read every resource read except the audit, trace and fleet lanes', () => {
    const reads = scopesOfCapability('config:read');
    expect(reads).toEqual(
      expect.arrayContaining([
        'keys:read',
        'admin-keys:read',
        'users:read',
        'spend:read',
        'providers:read',
        'routing:read',
        'optimizer:read',
        'policies:read',
        'settings:read',
        'sso:read',
        'enrollment:read',
        'provisioning:read',
      ]),
    );
    expect(reads).not.toContain('audit:read');
    expect(reads).not.toContain('traces:read');
    expect(reads).not.toContain('fleet:read');
    expect(reads.every((scope) => scope.endsWith(':read'))).toBe(true);
  });

  it('translates the named capabilities as the spec lists them', () => {
    expect(scopesOfCapability('usercaps:write')).toEqual(['users:write']);
    expect(scopesOfCapability('enrollment:manage')).toEqual(['enrollment:write', 'fleet:enroll']);
    expect(scopesOfCapability('provisioning:manage')).toEqual(['provisioning:write', 'fleet:write', 'fleet:remediate']);
    expect(scopesOfCapability('optimizer:write')).toEqual(['optimizer:write']);
    expect(scopesOfCapability('optimizer:purge')).toEqual(['optimizer:write']);
    expect(scopesOfCapability('desktopconfig:write')).toEqual(['policies:write']);
  });

  it('maps every capability to known scopes', () => {
    for (const capability of capabilities)
      for (const scope of scopesOfCapability(capability)) expect(isKnownScope(scope)).toBe(true);
  });
});

describe('grantability to admin API keys', () => {
  it('follows the named-exception table', () => {
    const table = Object.fromEntries(scopeExceptions.map((exception) => [exception.scope, exception.grantable]));
    expect(table).toEqual({
      'users:revoke': false,
      'users:gdpr': true,
      'providers:write': true,
      'fleet:enroll': true,
      'fleet:remediate': true,
      'playground:run': true,
      'fleet:direct': false,
      'settings:content': false,
      'settings:update': false,
      'sso:write': false,
      'admin-keys:write': false,
      'traces:content': false,
      'fleet:content': false,
    });
    for (const [scope, grantable] of Object.entries(table)) expect(isGrantableScope(scope)).toBe(grantable);
    expect(isGrantableScope('keys:write')).toBe(true);
    expect(isGrantableScope('nope:read')).toBe(false);
  });

  it('refuses content, content mode, SSO config, self-update and key management as capabilities', () => {
    const ungrantable = capabilities.filter((capability) => !isGrantableCapability(capability));
    expect(ungrantable).toEqual(
      expect.arrayContaining(['content:read', 'content:manage', 'identity:manage', 'update:run', 'adminkeys:manage']),
    );
    expect(isGrantableCapability('clientkeys:manage')).toBe(true);
    expect(isGrantableCapability('config:read')).toBe(true);
  });
});

describe('the published tables in README.md', () => {
  it('match the code', async () => {
    const readme = await readFile(new URL('./README.md', import.meta.url), 'utf8');
    for (const row of roleTable())
      expect(readme).toContain(`| \`${row.role}\` | ${row.adds.map((capability) => `\`${capability}\``).join(', ')} |`);
    for (const capability of capabilities) {
      if (capability === 'config:read') continue;
      const line = `| \`${capability}\` | ${scopesOfCapability(capability)
        .map((scope) => `\`${scope}\``)
        .join(', ')} | ${isGrantableCapability(capability) ? 'yes' : 'no'} |`;
      expect(readme).toContain(line);
    }
  });
});
