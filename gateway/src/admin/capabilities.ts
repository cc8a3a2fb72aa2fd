/**
 * Admin capabilities (legacy `/admin/*` gates, spec 000 §5): the single source of the names. The spec names the first
 * fifteen and leaves the full catalog to us ("not shown"); the rest gate lanes whose legacy capability the spec does
 * not name (audit, routing, revoked users, GDPR, directives, playground). Roles are in `roles.ts`, the translation to
 * v1 scopes in `scopes.ts`.
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

const capabilitySet: ReadonlySet<string> = new Set(capabilities);

export function isCapability(value: string): value is Capability {
  return capabilitySet.has(value);
}
