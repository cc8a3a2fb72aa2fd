import { roles, type Capability, type Role } from '@gw/contracts/management';

// Roles grant capabilities cumulatively, each including everything below it; the names are declared in contracts.
export { roles, type Role };

// What each role adds on top of the one below (the per-role list is ours to publish; see README.md in this folder).
const addedBy: Readonly<Record<Role, readonly Capability[]>> = {
  viewer: ['config:read'],
  auditor: ['observability:read', 'audit:read'],
  operator: [
    'clientkeys:manage',
    'usercaps:write',
    'providerkeys:manage',
    'routing:manage',
    'desktopconfig:write',
    'optimizer:write',
    'provisioning:manage',
    'enrollment:manage',
    'playground:run',
  ],
  // Minting an admin API key needs adminkeys:manage, "security_admin and up".
  security_admin: [
    'adminkeys:manage',
    'identity:manage',
    'revokedusers:manage',
    'gdpr:manage',
    'optimizer:purge',
    'directives:manage',
  ],
  owner: ['content:manage', 'content:read', 'update:run'],
};

/** Every capability a role holds, its own and those of every lower role. */
export function roleCapabilities(role: Role): ReadonlySet<Capability> {
  const held = new Set<Capability>();
  for (const candidate of roles) {
    for (const capability of addedBy[candidate]) held.add(capability);
    if (candidate === role) break;
  }
  return held;
}

/** The published table: role → capabilities it adds. */
export function roleTable(): ReadonlyArray<{ role: Role; adds: readonly Capability[]; holds: readonly Capability[] }> {
  return roles.map((role) => ({ role, adds: addedBy[role], holds: [...roleCapabilities(role)] }));
}
