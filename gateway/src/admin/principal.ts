import type { FastifyRequest } from 'fastify';
import { timingSafeEqualString } from '@gw/platform';
import { capabilities, type Capability } from './capabilities.js';
import { roleCapabilities, type Role } from './roles.js';
import { scopeCatalog, scopesForCapabilities } from './scopes.js';

/** Who is calling the admin plane. The admin token is the break-glass owner holding every capability. */
export interface Principal {
  kind: 'admin-token' | 'api-key' | 'sso';
  /** Audit attribution: `admin-token`, `apikey:<id>`, `sso:<email>`. */
  actor: string;
  capabilities: ReadonlySet<Capability>;
  /** Management API v1 scopes; `'*'` grants every scope. */
  scopes: ReadonlySet<string>;
  /** Not bound to one tenant: the deployment's own operators (the admin token, owner-level sessions, their keys). */
  deploymentOwner: boolean;
  /** Fleet mode: the tenant a principal is bound to; null = deployment-wide. */
  tenant: string | null;
  /** A scope-minted key has no capabilities, so every legacy `/admin/*` gate rejects it. */
  legacyAccess: boolean;
  /** Admin API key id, for keys. */
  keyId?: string;
  /** Console role, for SSO sessions. */
  role?: Role;
}

export const adminTokenPrincipal: Principal = {
  kind: 'admin-token',
  actor: 'admin-token',
  capabilities: new Set(capabilities),
  scopes: new Set(['*']),
  deploymentOwner: true,
  tenant: null,
  legacyAccess: true,
};

/** A console SSO session's principal from its role (the SSO issue resolves the session; this builds the grant). */
export function rolePrincipal(role: Role, options: { email: string; tenant?: string | null }): Principal {
  const held = roleCapabilities(role);
  const tenant = options.tenant ?? null;
  return {
    kind: 'sso',
    actor: `sso:${options.email}`,
    capabilities: held,
    scopes: scopesForCapabilities(held),
    deploymentOwner: tenant === null,
    tenant,
    legacyAccess: true,
    role,
  };
}

export function hasScope(principal: Principal, scope: string): boolean {
  return principal.scopes.has('*') || principal.scopes.has(scope);
}

/** The scopes a principal holds, `'*'` expanded to the catalog (what `GET /admin/v1/me` reports). */
export function effectiveScopes(principal: Principal): string[] {
  return principal.scopes.has('*') ? [...scopeCatalog] : [...principal.scopes].sort();
}

/** Resolves the bearer of an admin request. `null` = not mine (the next resolver tries); throwing = fail closed. */
export interface PrincipalResolver {
  resolve(request: FastifyRequest): Promise<Principal | null>;
}

export function bearerOf(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  const match = typeof header === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  return match?.[1] ?? null;
}

export function adminTokenResolver(adminToken: string | undefined): PrincipalResolver {
  return {
    async resolve(request) {
      const bearer = bearerOf(request);
      if (!bearer || !adminToken) return null;
      return timingSafeEqualString(bearer, adminToken) ? adminTokenPrincipal : null;
    },
  };
}

/**
 * The resolver chain: admin token, then admin API keys, then console sessions (the SSO seam). The first resolver
 * that recognises the credential wins; an error (a store outage) stops the chain and fails the request closed.
 */
export function chainResolvers(resolvers: readonly PrincipalResolver[]): PrincipalResolver {
  return {
    async resolve(request) {
      for (const resolver of resolvers) {
        const principal = await resolver.resolve(request);
        if (principal) return principal;
      }
      return null;
    },
  };
}
