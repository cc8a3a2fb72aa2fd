/**
 * The names an admin principal is described with on the wire: legacy `/admin/*` capabilities and roles. The gateway
 * decides what each grants (gateway/src/admin/roles.ts, scopes.ts); the names are declared here once so the admin-key
 * and `/admin/v1/me` bodies, and their clients, share them. The specification names the first fifteen capabilities
 * and leaves the full catalog to us; the rest gate lanes whose legacy capability it does not name (audit, routing,
 * revoked users, GDPR, directives, playground).
 */
export const capabilities = [
  'config:read',
  'observability:read',
  'audit:read',
  'provisioning:manage',
  'clientkeys:manage',
  'adminkeys:manage',
  'usercaps:write',
  'content:manage',
  'content:read',
  'identity:manage',
  'update:run',
  'enrollment:manage',
  'providerkeys:manage',
  'routing:manage',
  'desktopconfig:write',
  'optimizer:write',
  'optimizer:purge',
  'revokedusers:manage',
  'gdpr:manage',
  'directives:manage',
  'playground:run',
] as const;
export type Capability = (typeof capabilities)[number];

/** Roles grant capabilities cumulatively, each including everything below it (lowest first). */
export const roles = ['viewer', 'auditor', 'operator', 'security_admin', 'owner'] as const;
export type Role = (typeof roles)[number];
