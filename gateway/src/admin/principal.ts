import type { FastifyRequest } from 'fastify';
import { timingSafeEqualString } from '@gw/platform';
import { capabilities, type Capability } from './capabilities.js';

/** Who is calling the admin plane. The admin token is the break-glass owner holding every capability. */
export interface Principal {
  kind: 'admin-token' | 'api-key' | 'sso';
  /** Audit attribution: `admin-token`, `apikey:<id>`, `sso:<email>`. */
  actor: string;
  capabilities: ReadonlySet<Capability>;
  /** Management API v1 scopes; `'*'` grants every scope. */
  scopes: ReadonlySet<string>;
  deploymentOwner: boolean;
  tenant: string | null;
}

export const adminTokenPrincipal: Principal = {
  kind: 'admin-token',
  actor: 'admin-token',
  capabilities: new Set(capabilities),
  scopes: new Set(['*']),
  deploymentOwner: true,
  tenant: null,
};

/** Resolves the bearer of an admin request; extended with `aak_` keys and SSO sessions by the admin plane. */
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
