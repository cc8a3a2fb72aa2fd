import type { FastifyReply, FastifyRequest } from 'fastify';
import { timingSafeEqualString } from '@gw/platform';
import { optimizerError } from '../errors.js';

/** Who called a hook: the shared gateway token, a per-tenant bearer (authoritative tenant), or an open deployment. */
export type Caller = { kind: 'shared' } | { kind: 'tenant'; tenant: string } | { kind: 'open' };

export interface HookTokens {
  /** GW_OPTIMIZER_TOKEN. */
  shared: string | undefined;
  /** GW_OPTIMIZER_TENANT_TOKENS: per-tenant bearers. */
  tenants: ReadonlyArray<{ tenant: string; token: string }>;
}

export function bearerOf(header: string | undefined): string | null {
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1] : null;
}

/**
 * Resolve the bearer against every configured token, comparing each in constant time and never stopping early, so
 * timing says nothing about which token nearly matched. With no token configured the hooks are open.
 */
export function resolveCaller(authorization: string | undefined, tokens: HookTokens): Caller | null {
  if (tokens.shared === undefined && tokens.tenants.length === 0) return { kind: 'open' };
  const presented = bearerOf(authorization);
  if (presented === null) return null;
  let caller: Caller | null = null;
  if (tokens.shared !== undefined && timingSafeEqualString(presented, tokens.shared)) caller = { kind: 'shared' };
  for (const entry of tokens.tenants) {
    if (timingSafeEqualString(presented, entry.token) && caller === null)
      caller = { kind: 'tenant', tenant: entry.tenant };
  }
  return caller;
}

/** The tenant a per-tenant bearer pins, which beats any tenant in metadata. */
export function authoritativeTenant(caller: Caller): string | undefined {
  return caller.kind === 'tenant' ? caller.tenant : undefined;
}

/** onRequest hook of the admin routes: GW_ADMIN_TOKEN bearer; with no admin token configured the routes stay shut. */
export function adminGate(adminToken: string | undefined) {
  return async (request: FastifyRequest, _reply: FastifyReply): Promise<void> => {
    if (adminToken === undefined) throw optimizerError('admin_disabled');
    const presented = bearerOf(request.headers.authorization);
    if (presented === null || !timingSafeEqualString(presented, adminToken)) throw optimizerError('unauthorized');
  };
}
