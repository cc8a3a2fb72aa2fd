import type { FastifyRequest } from 'fastify';
import { sha256Hex, timingSafeEqualString, type Db } from '@gw/platform';
import { gatewayError } from '../../errors.js';
import { rolePrincipal, type PrincipalResolver } from '../../admin/principal.js';
import { consoleAuthEntry, type AuditRecorder } from './console-auth-events.js';
import { consoleMemberOf, type ConsoleMember } from './console-role.js';
import type { ConsoleSession, ConsoleSessionStore } from './console-session.store.js';
import { readIdpConfig } from './idp-config.store.js';
import { readConsoleCookie, unbindToken } from './session-cookie.js';

export interface ConsoleSessionsDeps {
  db: Db;
  store: ConsoleSessionStore;
  /** This deployment (GW_DEPLOYMENT_ID, or `local`): part of every cookie's binding. */
  deployment: string;
  idleMs: number;
  publicUrl: string | undefined;
  now: () => number;
  audit: AuditRecorder;
}

export interface LiveSession {
  session: ConsoleSession;
  member: ConsoleMember;
}

export type SessionCheck = { live: LiveSession } | { refused: string; user: string | null } | null;

const safeMethods = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Console sessions on the admin plane (docs/adr/0026-console-sessions.md): the cookie's binding to this deployment,
 * the stored session (not revoked, inside its idle and absolute timeouts), the user's role re-read from the SCIM
 * directory on every request, and CSRF on every state-changing call.
 */
export class ConsoleSessions {
  constructor(private readonly deps: ConsoleSessionsDeps) {}

  get deployment(): string {
    return this.deps.deployment;
  }

  /** The session the request's cookie names: null without a cookie, `refused` with the reason otherwise. */
  async check(request: FastifyRequest): Promise<SessionCheck> {
    const cookie = readConsoleCookie(request, 'session');
    if (!cookie) return null;
    const binding = { secret: await this.deps.store.bindingSecret(), deployment: this.deps.deployment };
    const token = unbindToken(cookie, binding);
    if (!token) return { refused: 'foreign_cookie', user: null };
    const session = await this.deps.store.find(token);
    if (!session || session.deployment !== this.deps.deployment) return { refused: 'foreign_cookie', user: null };
    const now = this.deps.now();
    const user = session.userName;
    if (session.revokedAt !== null) return { refused: 'revoked', user };
    if (now >= session.expiresAt) return { refused: 'expired', user };
    if (now - session.lastSeenAt >= this.deps.idleMs) {
      await this.deps.store.revoke(session.idHash, 'idle');
      return { refused: 'idle', user };
    }
    const config = await readIdpConfig(this.deps.db);
    const member = config ? await consoleMemberOf(this.deps.db, session.userName, config) : null;
    if (!member) {
      await this.deps.store.revoke(session.idHash, 'role_lost');
      return { refused: config ? 'role_lost' : 'not_configured', user };
    }
    return { live: { session, member } };
  }

  /** CSRF: the session's own token in `x-gw-csrf-token` (constant-time), and no cross-origin sender. */
  csrfHolds(request: FastifyRequest, session: ConsoleSession): boolean {
    const header = request.headers['x-gw-csrf-token'];
    if (typeof header !== 'string' || !timingSafeEqualString(sha256Hex(header), session.csrfHash)) return false;
    const fetchSite = request.headers['sec-fetch-site'];
    if (fetchSite === 'cross-site' || fetchSite === 'same-site') return false;
    const origin = request.headers.origin;
    return origin === undefined || origin === this.expectedOrigin(request);
  }

  private expectedOrigin(request: FastifyRequest): string {
    return this.deps.publicUrl ? new URL(this.deps.publicUrl).origin : `${request.protocol}://${request.host}`;
  }

  /** The admin plane's console-session principal resolver (after the admin token, `aak_` keys and provisioning tokens). */
  resolver(): PrincipalResolver {
    return {
      resolve: async (request) => {
        const checked = await this.check(request);
        if (checked === null) return null;
        if ('refused' in checked) {
          await this.refuse(request, 'console_session_refused', checked.user, 401, checked.refused);
          return null;
        }
        const { session, member } = checked.live;
        if (!safeMethods.has(request.method) && !this.csrfHolds(request, session)) {
          await this.refuse(request, 'console_csrf_refused', member.userName, 403, 'csrf');
          throw gatewayError('csrf_failed');
        }
        await this.deps.store.touch(session);
        return rolePrincipal(member.role, { email: member.userName });
      },
    };
  }

  refuse(
    request: FastifyRequest,
    action: 'console_session_refused' | 'console_csrf_refused',
    user: string | null,
    status: number,
    reason: string,
  ): Promise<void> {
    return this.deps.audit(
      consoleAuthEntry({ action, user, status, reason, endpoint: `${request.method} ${request.url.split('?')[0]}` }),
    );
  }
}
