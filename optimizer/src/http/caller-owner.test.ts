import { describe, expect, it } from 'vitest';
import { callerOwner, callerTenant, ownerKey, withBearerTenant } from './caller-owner.js';

describe('caller owner (one resolution for stash, recall, retrieve, cache, holdout, guard and turns)', () => {
  it.each([
    ['nothing named: the deployment tenant', undefined, undefined, { tenant: 'default' }],
    ['the tenant metadata names', { tenant: 'acme', user: 'ada' }, undefined, { tenant: 'acme', user: 'ada' }],
    [
      'a per-tenant bearer beats metadata',
      { tenant: 'globex', user: 'ada', team: 'core' },
      'acme',
      { tenant: 'acme', user: 'ada', team: 'core' },
    ],
    ['blank ids name nobody', { tenant: ' ', user: '', team: '\t' }, undefined, { tenant: 'default' }],
  ])('%s', (_name, names, bearerTenant, owner) => {
    expect(callerOwner(names, bearerTenant)).toEqual(owner);
    expect(callerTenant(names, bearerTenant)).toBe(owner.tenant);
  });

  it('keys conversations by tenant and user, else team', () => {
    expect(ownerKey({ tenant: 'acme', user: 'ada', team: 'core' })).toBe('acme\u0000ada');
    expect(ownerKey({ tenant: 'acme', team: 'core' })).toBe('acme\u0000core');
    expect(ownerKey({ tenant: 'default' })).toBe('default\u0000');
  });

  it('puts a per-tenant bearer’s tenant into the metadata a hook acts on, and leaves it alone otherwise', () => {
    const metadata = { tenant: 'globex', user: 'ada', source: 'splice' };
    expect(withBearerTenant(metadata, 'acme')).toEqual({ tenant: 'acme', user: 'ada', source: 'splice' });
    expect(withBearerTenant(undefined, 'acme')).toEqual({ tenant: 'acme' });
    expect(withBearerTenant(metadata, undefined)).toBe(metadata);
  });
});
