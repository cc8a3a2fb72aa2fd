import { isoInstant } from '@gw/platform';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Coord, Db, ZodTypeProvider } from '@gw/platform';
import { gatewayError } from '../../errors.js';
import { classifyAdminError, legacyErrorBody } from '../../admin/error-envelope.js';
import { roleCapabilities } from '../../admin/roles.js';
import { consoleAuthEntry, type AuditRecorder } from './console-auth-events.js';
import { consoleMemberOf } from './console-role.js';
import type { ConsoleSessionStore } from './console-session.store.js';
import type { ConsoleSessions } from './console-sessions.js';
import {
  authProbeResponse,
  callbackQuery,
  consoleErrorResponse,
  sessionInfo,
  signInQuery,
  signOutResponse,
} from './console-sso.schema.js';
import type { IdpConfigStore } from './idp-config.store.js';
import {
  bindToken,
  clearConsoleCookies,
  cookieNames,
  isSecureRequest,
  readConsoleCookie,
  setCookies,
  unbindToken,
} from './session-cookie.js';
import { SignInError, signInErrors } from './sign-in-error.js';
import { signInFlowTtlMs, type SignInFlow } from './sign-in-flow.js';

export interface ConsoleSsoPluginOptions {
  db: Db;
  coord: Coord;
  configs: IdpConfigStore;
  flow: SignInFlow;
  sessions: ConsoleSessions;
  store: ConsoleSessionStore;
  maxAgeMs: number;
  idleMs: number;
  publicUrl: string | undefined;
  audit: AuditRecorder;
  now: () => number;
}

const tags = ['console session'];
// Each start keeps a pending flow for ten minutes: an address may open this many a minute.
const startsPerMinute = 30;
const open = { tags, security: [] };
const signedIn = { tags, security: [{ consoleSession: [] }] };
const errors = { 400: consoleErrorResponse, 401: consoleErrorResponse, 403: consoleErrorResponse };

/** The gateway's base URL as browsers reach it: GW_PUBLIC_URL, else the request's own origin. */
export function consoleBaseUrl(request: FastifyRequest, publicUrl: string | undefined): string {
  return publicUrl ? publicUrl.replace(/\/+$/, '') : `${request.protocol}://${request.host}`;
}

/**
 * Console sign-in (not an integration surface, so not re-served under /admin/v1): the pre-session probe
 * `GET /admin/auth`, and `/admin/sso/{start,callback,session,logout}`. Design: docs/adr/0026-console-sessions.md.
 */
export async function consoleSsoPlugin(app: FastifyInstance, options: ConsoleSsoPluginOptions): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const { flow, sessions, store, audit } = options;
  app.setErrorHandler(async (error, _request, reply) => {
    const shape = classifyAdminError(error instanceof SignInError ? error.error : error);
    return reply.code(shape.status).headers(shape.headers).send(legacyErrorBody(shape));
  });
  const endpoint = (request: FastifyRequest) => `${request.method} ${request.url.split('?')[0]}`;

  routes.get(
    '/admin/auth',
    {
      schema: {
        ...open,
        summary: 'Pre-session auth-mode probe: whether console sign-in goes through SSO',
        response: { 200: authProbeResponse },
      },
    },
    async (request) => {
      const config = await options.configs.read();
      const checked = config ? await sessions.check(request) : null;
      const live = checked && 'live' in checked ? checked.live : null;
      return {
        ssoConfigured: config !== null,
        ssoRequired: config !== null,
        signInUrl: config ? `${consoleBaseUrl(request, options.publicUrl)}/admin/sso/start` : null,
        issuer: config?.issuer ?? null,
        session: live ? { user: live.member.userName, role: live.member.role } : null,
      };
    },
  );

  routes.get(
    '/admin/sso/start',
    {
      schema: {
        ...open,
        summary:
          'Start console sign-in: redirects to the identity provider (authorization code with PKCE, state, nonce)',
        querystring: signInQuery,
        response: {
          302: z.null().describe('To the identity provider’s authorization endpoint'),
          ...errors,
          404: consoleErrorResponse,
          429: consoleErrorResponse,
          503: consoleErrorResponse,
        },
      },
    },
    async (request, reply) => {
      const decision = await options.coord.rateLimit(`console-sso-start:${request.ip}`, startsPerMinute, 60_000);
      if (!decision.allowed)
        throw gatewayError('rate_limited', 'Too many sign-ins started from this address; wait a minute.', {
          headers: { 'retry-after': String(Math.max(1, Math.ceil(decision.retryAfterMs / 1000))) },
        });
      try {
        const started = await flow.start({
          redirectUri: `${consoleBaseUrl(request, options.publicUrl)}/admin/sso/callback`,
          returnTo: request.query.returnTo ?? '/',
        });
        const secure = isSecureRequest(request, options.publicUrl);
        setCookies(reply, [
          [cookieNames(secure).flow, started.binder, { secure, httpOnly: true, maxAgeSeconds: signInFlowTtlMs / 1000 }],
        ]);
        return reply.header('cache-control', 'no-store').redirect(started.authorizationUrl, 302);
      } catch (error) {
        if (error instanceof SignInError)
          await audit(
            consoleAuthEntry({
              action: 'console_sign_in_refused',
              user: null,
              status: error.error.status,
              reason: error.reason,
              endpoint: endpoint(request),
            }),
          );
        throw error;
      }
    },
  );

  routes.get(
    '/admin/sso/callback',
    {
      schema: {
        ...open,
        summary: 'The identity provider returns here: the code is exchanged, the ID token verified and a session set',
        querystring: callbackQuery,
        response: {
          303: z.null().describe('Signed in: to returnTo, with the session cookies'),
          ...errors,
          503: consoleErrorResponse,
        },
      },
    },
    async (request, reply) => {
      clearConsoleCookies(reply, ['flow']);
      reply.header('cache-control', 'no-store');
      let user: string | null = null;
      try {
        const verified = await flow.complete({
          state: request.query.state,
          code: request.query.code,
          error: request.query.error,
          issuer: request.query.iss,
          binder: readConsoleCookie(request, 'flow'),
        });
        user = verified.userName;
        const member = await consoleMemberOf(options.db, verified.userName, verified.config);
        if (!member) throw signInErrors.notAdmin();
        await revokePrevious(request, sessions, store);
        const minted = await store.create({
          deployment: sessions.deployment,
          userName: member.userName,
          subject: verified.subject,
          issuer: verified.issuer,
          maxAgeMs: options.maxAgeMs,
        });
        const secure = isSecureRequest(request, options.publicUrl);
        const names = cookieNames(secure);
        const binding = { secret: await store.bindingSecret(), deployment: sessions.deployment };
        const maxAgeSeconds = options.maxAgeMs / 1000;
        setCookies(reply, [
          [names.session, bindToken(minted.token, binding), { secure, httpOnly: true, maxAgeSeconds }],
          // Readable by the console's script, which echoes it in x-gw-csrf-token; another origin cannot read it.
          [names.csrf, minted.csrfToken, { secure, httpOnly: false, maxAgeSeconds }],
        ]);
        await audit(
          consoleAuthEntry({
            action: 'console_sign_in',
            user: member.userName,
            status: 303,
            endpoint: endpoint(request),
          }),
        );
        return reply.redirect(`${consoleBaseUrl(request, options.publicUrl)}${verified.returnTo}`, 303);
      } catch (error) {
        if (error instanceof SignInError)
          await audit(
            consoleAuthEntry({
              action: 'console_sign_in_refused',
              user,
              status: error.error.status,
              reason: error.reason,
              endpoint: endpoint(request),
            }),
          );
        throw error;
      }
    },
  );

  routes.get(
    '/admin/sso/session',
    {
      schema: {
        ...signedIn,
        summary: 'The browser’s console session: user, role, capabilities and when it ends',
        response: { 200: sessionInfo, 401: consoleErrorResponse },
      },
    },
    async (request, reply) => {
      const checked = await sessions.check(request);
      if (!checked || 'refused' in checked) {
        if (checked) await sessions.refuse(request, 'console_session_refused', checked.user, 401, checked.refused);
        return reply.code(401).send({
          error: { code: 'unauthenticated', message: 'No live console session; sign in at /admin/sso/start.' },
        });
      }
      const { session, member } = checked.live;
      await store.touch(session);
      return {
        user: member.userName,
        role: member.role,
        capabilities: [...roleCapabilities(member.role)].sort(),
        createdAt: isoInstant(session.createdAt),
        expiresAt: isoInstant(session.expiresAt),
        idleExpiresAt: new Date(
          Math.min(session.expiresAt, Math.max(session.lastSeenAt, options.now()) + options.idleMs),
        ).toISOString(),
      };
    },
  );

  routes.post(
    '/admin/sso/logout',
    {
      schema: {
        ...signedIn,
        summary: 'Sign out: the session is revoked on every replica and the cookies cleared (needs x-gw-csrf-token)',
        response: { 200: signOutResponse, 403: consoleErrorResponse },
      },
    },
    async (request, reply) => {
      const checked = await sessions.check(request);
      const live = checked && 'live' in checked ? checked.live : null;
      if (live && !sessions.csrfHolds(request, live.session)) {
        await sessions.refuse(request, 'console_csrf_refused', live.member.userName, 403, 'csrf');
        return reply.code(403).send({
          error: {
            code: 'csrf_failed',
            message: 'Sign-out needs the session’s CSRF token in x-gw-csrf-token, from the console’s own origin.',
          },
        });
      }
      clearConsoleCookies(reply, ['session', 'csrf']);
      const signedOut = live ? await store.revoke(live.session.idHash, 'signed_out') : false;
      if (live)
        await audit(
          consoleAuthEntry({
            action: 'console_sign_out',
            user: live.member.userName,
            status: 200,
            endpoint: endpoint(request),
          }),
        );
      return { signedOut };
    },
  );
}

/** Rotation on sign-in: the session this browser held before (if any, and ours) ends when the new one starts. */
async function revokePrevious(request: FastifyRequest, sessions: ConsoleSessions, store: ConsoleSessionStore) {
  const cookie = readConsoleCookie(request, 'session');
  if (!cookie) return;
  const token = unbindToken(cookie, { secret: await store.bindingSecret(), deployment: sessions.deployment });
  const previous = token ? await store.find(token) : null;
  if (previous) await store.revoke(previous.idHash, 'rotated');
}
