/**
 * Admin capabilities (legacy `/admin/*` gates, spec 000 §5). The per-role catalog and the capability → v1 scope
 * translation live beside this file as the admin plane grows; this list is the single source of the names.
 */
export const capabilities = [
  'config:read',
  'observability:read',
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
  'desktopconfig:write',
  'optimizer:write',
  'optimizer:purge',
] as const;

export type Capability = (typeof capabilities)[number];
