import type { Capability } from './capabilities.js';

/**
 * Management API v1 scopes and the capability → scope translation, in one file.
 *
 * The rule: `<resource>:read` for GET (and `POST …/query`), `<resource>:write` for other methods, where the resource
 * is the first path segment after `/admin/v1/`. The named exceptions below gate narrower lanes; each says whether an
 * admin API key may hold it.
 */
const readableResources = [
  'keys',
  'admin-keys',
  'users',
  'spend',
  'providers',
  'routing',
  'optimizer',
  'policies',
  'settings',
  'sso',
  'enrollment',
  'provisioning',
  'fleet',
  'traces',
  'audit',
] as const;

// Read-only lanes have no `:write` scope.
const readOnlyResources: ReadonlySet<string> = new Set(['spend', 'traces', 'audit']);

export interface ScopeException {
  scope: string;
  gates: string;
  grantable: boolean;
}

/** The contract's "Named exceptions", verbatim in meaning, with their grantability to an admin API key. */
export const scopeExceptions: readonly ScopeException[] = [
  { scope: 'users:revoke', gates: 'revoke or reinstate a developer', grantable: false },
  { scope: 'users:gdpr', gates: "a user's export and erase", grantable: true },
  { scope: 'providers:write', gates: 'credential-grade read on GET providers', grantable: true },
  {
    scope: 'fleet:enroll',
    gates:
      'enroll secret read and rotate, evidence-connector bearers, installer download, MDM profile, enabling a policy',
    grantable: true,
  },
  { scope: 'fleet:remediate', gates: 'run remediation script, retire host, push policy', grantable: true },
  { scope: 'playground:run', gates: 'admin playground', grantable: true },
  { scope: 'fleet:direct', gates: 'queue a directive for a developer seat', grantable: false },
  {
    scope: 'settings:content',
    gates: 'content mode, trace retention, and any PUT /admin/v1/settings field outside the runtime-settings allowlist',
    grantable: false,
  },
  { scope: 'settings:update', gates: 'self-update policy', grantable: false },
  { scope: 'sso:write', gates: 'identity-provider and SCIM config', grantable: false },
  { scope: 'admin-keys:write', gates: 'minting and revoking aak_ keys', grantable: false },
  { scope: 'traces:content', gates: 'prompt and response bodies', grantable: false },
  { scope: 'fleet:content', gates: 'remediation script output', grantable: false },
];

/** Every scope that exists. */
export const scopeCatalog: readonly string[] = [
  ...new Set([
    ...readableResources.map((resource) => `${resource}:read`),
    ...readableResources.filter((resource) => !readOnlyResources.has(resource)).map((resource) => `${resource}:write`),
    ...scopeExceptions.map((exception) => exception.scope),
  ]),
].sort();

const catalog: ReadonlySet<string> = new Set(scopeCatalog);
const ungrantable: ReadonlySet<string> = new Set(
  scopeExceptions.filter((exception) => !exception.grantable).map((exception) => exception.scope),
);

export function isKnownScope(scope: string): boolean {
  return catalog.has(scope);
}

/** Whether an admin API key may hold the scope. */
export function isGrantableScope(scope: string): boolean {
  return catalog.has(scope) && !ungrantable.has(scope);
}

// Config:read is every <resource>:read except the audit, trace and fleet lanes.
const configReadExcluded: ReadonlySet<string> = new Set(['audit', 'traces', 'fleet']);

/** The contract's "Capabilities translate to scopes". */
const scopesByCapability: Readonly<Record<Capability, readonly string[]>> = {
  'config:read': readableResources
    .filter((resource) => !configReadExcluded.has(resource))
    .map((resource) => `${resource}:read`),
  // Fleet listings are fleet:read; traces are the observability lane.
  'observability:read': ['traces:read', 'fleet:read'],
  // "The audit lane needs audit:read, which config:read no longer implies."
  'audit:read': ['audit:read'],
  'clientkeys:manage': ['keys:write'],
  'adminkeys:manage': ['admin-keys:write'],
  'usercaps:write': ['users:write'],
  'provisioning:manage': ['provisioning:write', 'fleet:write', 'fleet:remediate'],
  'enrollment:manage': ['enrollment:write', 'fleet:enroll'],
  'providerkeys:manage': ['providers:write'],
  // routing:write covers routing config and aliases; policies:write team skills and the desktop policy.
  'routing:manage': ['routing:write'],
  'desktopconfig:write': ['policies:write'],
  // optimizer:write covers settings and purge.
  'optimizer:write': ['optimizer:write'],
  'optimizer:purge': ['optimizer:write'],
  // PUT /admin/settings needs content:manage: the runtime allowlist and every content field.
  'content:manage': ['settings:write', 'settings:content'],
  'content:read': ['traces:content', 'fleet:content'],
  'identity:manage': ['sso:write'],
  'update:run': ['settings:update'],
  'revokedusers:manage': ['users:revoke'],
  'gdpr:manage': ['users:gdpr'],
  'directives:manage': ['fleet:direct'],
  'playground:run': ['playground:run'],
};

export function scopesOfCapability(capability: Capability): readonly string[] {
  return scopesByCapability[capability];
}

/** The v1 scopes a set of capabilities carries. */
export function scopesForCapabilities(held: Iterable<Capability>): ReadonlySet<string> {
  const scopes = new Set<string>();
  for (const capability of held) for (const scope of scopesByCapability[capability]) scopes.add(scope);
  return scopes;
}

/** A capability is grantable to a key when every scope it carries is (one rule for caps- and scope-minted keys). */
export function isGrantableCapability(capability: Capability): boolean {
  return scopesByCapability[capability].every(isGrantableScope);
}
