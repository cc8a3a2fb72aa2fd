import type { FastifyInstance, FastifyRequest } from 'fastify';
import { firstHeader } from '../../shared/first-header.js';
import { z } from 'zod';
import { type Clock, type Coord, type Db, type ZodTypeProvider, isoInstant } from '@gw/platform';
import type { CliSsoPollResponse } from '@gw/contracts';
import type { AuditStore } from '../../admin/audit/audit.store.js';
import { connectErrorResponse } from '../connect/connect.schema.js';
import { BillingCallFailed, type BillingClient } from '../../billing/billing-client.js';
import type { KeyStore } from '../../identity/keys/key.store.js';
import { isUserBlocked } from '../../identity/users/user-blocked.js';
import { cliPollResponse, cliStartResponse } from './cli-login.schema.js';
import type { CliSessionStore } from './cli-session.store.js';
import { gatewayError } from '../../errors.js';

export interface CliLoginOptions {
  /** Null when the gateway has no billing service (`GW_BILLING_URL`): billing verifies who signs in. */
  billing: BillingClient | null;
  sessions: CliSessionStore;
  keys: KeyStore;
  db: Db;
  audit: AuditStore;
  coord: Coord;
  clock: Clock;
}

const pollIntervalSeconds = 5;
// A start costs billing a session, so an address gets a handful a minute.
const startsPerMinute = 10;
const tags = ['cli-login'];

const notConfigured = () => gatewayError('cli_login_not_configured');
// Unknown, expired, already used and a wrong secret all look alike: a poller learns nothing about other sessions.
const notFound = () => gatewayError('cli_login_not_found');
const billingDown = (error: BillingCallFailed) =>
  gatewayError('billing_unavailable', 'The sign-in service cannot be reached right now; retry shortly.', {
    headers: { 'retry-after': String(Math.min(error.retryAfterSeconds ?? pollIntervalSeconds, 60)) },
  });
const denied = (reason: string) => gatewayError('cli_login_denied', `The sign-in was refused (${reason}).`);

const pollParams = z.object({ id: z.string().max(80) });
const teamHeader = z.string().min(1).max(128);

/**
 * CLI login: the gateway opens a ten-minute session and hands the CLI a poll secret; billing hosts the
 * browser step (SSO sign-in, the user code) and tells the gateway who signed in and which teams they may join; the
 * gateway mints the client key itself and returns it once. Billing never sees the poll secret or the key.
 */
export async function cliLoginRoutes(plain: FastifyInstance, options: CliLoginOptions): Promise<void> {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  const { sessions, clock } = options;

  app.post(
    '/sso/cli/start',
    {
      schema: {
        tags,
        summary: 'Open a CLI login session (pre-key, rate-limited per address)',
        response: {
          200: cliStartResponse,
          404: connectErrorResponse,
          429: connectErrorResponse,
          503: connectErrorResponse,
        },
      },
    },
    async (request) => {
      const billing = options.billing;
      if (!billing) throw notConfigured();
      const decision = await options.coord.rateLimit(`cli-login-start:${request.ip}`, startsPerMinute, 60_000);
      if (!decision.allowed) {
        throw gatewayError('rate_limited', 'Too many CLI logins from this address; wait a minute.', {
          headers: { 'retry-after': String(Math.ceil(decision.retryAfterMs / 1000)) },
        });
      }
      const session = await sessions.open();
      let browserUrl: string;
      try {
        browserUrl = await billing.cliSsoStart({
          sessionId: session.id,
          userCode: session.userCode,
          expiresAt: isoInstant(session.expiresAt),
        });
      } catch (error) {
        await sessions.close(session.id);
        if (error instanceof BillingCallFailed) throw billingDown(error);
        throw error;
      }
      return {
        id: session.id,
        browser_url: browserUrl,
        user_code: session.userCode,
        poll_secret: session.pollSecret,
        interval: pollIntervalSeconds,
        expires_in: Math.round((session.expiresAt - clock.now()) / 1000),
      };
    },
  );

  app.get(
    '/sso/cli/poll/:id',
    {
      schema: {
        tags,
        summary: 'Poll a CLI login: pending, the team choice, or the one-time client key',
        params: pollParams,
        response: {
          200: cliPollResponse,
          400: connectErrorResponse,
          403: connectErrorResponse,
          404: connectErrorResponse,
          503: connectErrorResponse,
        },
      },
    },
    async (request) => {
      const billing = options.billing;
      if (!billing) throw notConfigured();
      const { id } = request.params;
      const secret = firstHeader(request, 'x-gw-poll-secret');
      if (!secret) throw gatewayError('invalid_request', 'The x-gw-poll-secret header is required.');
      if (!(await sessions.verify(id, secret))) throw notFound();
      let answer: CliSsoPollResponse;
      try {
        answer = await billing.cliSsoPoll(id);
      } catch (error) {
        if (error instanceof BillingCallFailed && error.httpStatus === 404) {
          await sessions.close(id);
          throw notFound();
        }
        if (error instanceof BillingCallFailed) throw billingDown(error);
        throw error;
      }
      if (answer.status === 'pending') return { status: 'pending' as const, interval: pollIntervalSeconds };
      if (answer.status === 'denied') {
        await sessions.close(id);
        throw denied(answer.reason);
      }
      return complete(options, request, id, answer);
    },
  );
}

async function complete(
  options: CliLoginOptions,
  request: FastifyRequest,
  id: string,
  answer: Extract<CliSsoPollResponse, { status: 'verified' }>,
) {
  const { teams, defaultTeam } = answer;
  if (teams.length === 0) {
    await options.sessions.close(id);
    throw denied('no_team');
  }
  const chosen = firstHeader(request, 'x-gw-team');
  if (chosen !== undefined && (!teamHeader.safeParse(chosen).success || !teams.includes(chosen))) {
    throw gatewayError(
      'team_not_allowed',
      `x-gw-team must be one of the teams this developer may join: ${teams.join(', ')}.`,
    );
  }
  const team = chosen ?? (teams.length === 1 ? teams[0] : undefined);
  if (team === undefined) return { status: 'select_team' as const, teams, defaultTeam };
  const user = answer.identity.email.toLowerCase();
  if (await isUserBlocked(options.db, user)) {
    await options.sessions.close(id);
    throw gatewayError('user_access_revoked', 'This developer’s access is revoked or deactivated; no key is minted.');
  }
  if (!(await options.sessions.claimMint(id))) throw notFound();
  const expiresAt = new Date(options.clock.now() + answer.keyLifetimeHours * 3_600_000);
  const minted = await options.keys.create({
    type: 'client',
    source: 'cli-login',
    user,
    team,
    label: 'CLI login',
    createdBy: `cli-login:${answer.identity.subject}`,
    expiresAt,
  });
  await options.sessions.close(id);
  await options.audit
    .record({
      category: 'keys',
      action: 'cli-login.mint',
      actor: `cli-login:${answer.identity.subject}`,
      target: minted.record.id,
      subject: user,
      requestId: request.traceId,
      outcome: 'success',
    })
    .catch((error: unknown) => request.log.warn({ err: error }, 'CLI login audit entry not recorded'));
  return {
    status: 'complete' as const,
    key: minted.key,
    keyId: minted.record.id,
    user,
    team,
    role: answer.role,
    expiresAt: expiresAt.toISOString(),
  };
}
