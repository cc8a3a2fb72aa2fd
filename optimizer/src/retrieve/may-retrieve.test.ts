import { describe, expect, it } from 'vitest';
import type { CallerNames } from '../http/caller-owner.js';
import { mayRetrieve } from './may-retrieve.js';
import type { StashOwner } from '../stash/stash-entry.js';

const alice: StashOwner = { tenant: 'default', user: 'alice', team: 'core' };
const core: StashOwner = { tenant: 'default', team: 'core' };
const acmeAlice: StashOwner = { tenant: 'acme', user: 'alice', team: 'core' };

const cases: Array<[string, StashOwner, CallerNames | undefined, string | undefined, boolean]> = [
  ['names nobody: the shared bearer is trusted', alice, undefined, undefined, true],
  ['names only a source: still nobody', alice, {}, undefined, true],
  ['the same user', alice, { user: 'alice', team: 'core' }, undefined, true],
  ['the same user from another team', alice, { user: 'alice', team: 'ops' }, undefined, true],
  ['another user of the same team', alice, { user: 'bob', team: 'core' }, undefined, false],
  ["the user's team without a user", alice, { team: 'core' }, undefined, false],
  ['the same user in another tenant', alice, { user: 'alice', tenant: 'acme' }, undefined, false],
  ['the same user naming the default tenant', alice, { user: 'alice', tenant: 'default' }, undefined, true],
  ['only a tenant, for a user-owned entry', alice, { tenant: 'default' }, undefined, false],
  ['a team entry, by a member without a user', core, { team: 'core' }, undefined, true],
  ['a team entry, by a user of that team', core, { user: 'alice', team: 'core' }, undefined, false],
  ['a team entry, by another team', core, { team: 'ops' }, undefined, false],
  ['a team entry, by an empty user of that team', core, { user: '', team: 'core' }, undefined, true],
  ['a team entry, by a blank user of that team', core, { user: '  ', team: 'core' }, undefined, true],
  ['a blank tenant is the default tenant', alice, { user: 'alice', tenant: ' ' }, undefined, true],
  ['a blank user is held to the rule, not trusted', alice, { user: '' }, undefined, false],
  ['a per-tenant bearer naming nobody, own tenant', acmeAlice, undefined, 'acme', true],
  ['a per-tenant bearer naming nobody, other tenant', alice, undefined, 'acme', false],
  ['a per-tenant bearer beats the tenant named', acmeAlice, { user: 'alice', tenant: 'default' }, 'acme', true],
  ['a per-tenant bearer, another user', acmeAlice, { user: 'bob' }, 'acme', false],
];

describe('mayRetrieve', () => {
  it.each(cases)('%s', (_name, owner, names, bearerTenant, allowed) => {
    expect(mayRetrieve(owner, names, bearerTenant)).toBe(allowed);
  });
});
