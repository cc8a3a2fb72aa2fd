import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Clock, Db, ZodTypeProvider } from '@gw/platform';
import { identityOf } from '../../chain/identity/identity-of.js';
import { extractClientKey } from '../../identity/keys/extract-key.js';
import type { Identity } from '../../identity/caller.js';
import type { AuditStore } from '../../admin/audit/audit.store.js';
import type { EnrollmentLinkStore, RedeemFailure } from '../../identity/enrollment/enrollment-link.store.js';
import type { KeyStore } from '../../identity/keys/key.store.js';
import { emailAddress } from '../../identity/users/email-address.js';
import { fromMicros } from '../../governance/money.js';
import { monthPeriod } from '../../governance/period.js';
import { usageFor, type UsageSource } from '../../governance/self-service.js';
import { lookupModel } from '../../providers/pricing/known-models.js';
import type { RoutingStore } from '../../routing/routing.store.js';
import type { HookSavingsStore, HookSavingsTotals } from '../seats/hook-savings.store.js';
import type { SeatStore } from '../seats/seat.store.js';
import { seatOf } from '../seats/seat.js';
import { connectErrors } from './connect-errors.js';
import { connectErrorResponse } from './connect.schema.js';

export interface ConnectAccountOptions {
  governance: UsageSource;
  db: Db;
  clock: Clock;
  routing: RoutingStore;
  seats: SeatStore;
  hookSavings: HookSavingsStore;
  enrollment: EnrollmentLinkStore;
  keys: KeyStore;
  audit: AuditStore;
}

const security = [{ clientKey: [] }];
const tags = ['connect'];

const verifyResponse = z.object({
  status: z.literal('ok'),
  user: z.string().nullable(),
  team: z.string(),
  tenant: z.string().nullable().describe('Fleet mode: the key’s tenant'),
  key: z.object({
    id: z.string(),
    type: z.enum(['client', 'service']),
    keyPrefix: z.string(),
    source: z.string(),
    createdAt: z.string(),
    expiresAt: z.string().nullable(),
  }),
  seat: z.object({ offboarded: z.boolean().describe('The seat was offboarded and not re-enrolled since') }),
  mintedKey: z.string().optional().describe('Enrollment only: the new client key, shown once'),
  enrollment: z.object({ id: z.string(), usesLeft: z.int() }).optional().describe('Enrollment only: the link redeemed'),
});

// One hook event saves at most what a whole context window holds; anything larger is not a measurement.
const maxTokensPerEvent = 2_000_000;
const hookSavingsBody = z.strictObject({
  tokensSaved: z.number().int().min(0).max(maxTokensPerEvent).describe('Tokens the hook kept out of the request'),
  model: z
    .string()
    .regex(/^[\x21-\x7e]{1,256}$/)
    .optional()
    .describe('The model the trimmed request went to; prices the saving when the gateway knows it'),
});
const hookSavingsResponse = z.object({
  status: z.literal('ok'),
  tokensSaved: z.number().int(),
  savingsUsd: z.number().describe('Priced at the model’s input price; 0 when the model is absent or unknown'),
});

const savingsBlock = z.object({ tokensSaved: z.number().int(), savingsUsd: z.number() });
const savingsResponse = z.object({
  status: z.literal('ok'),
  period: z.object({ month: z.string(), start: z.string(), end: z.string() }),
  gateway: savingsBlock
    .extend({ requests: z.number().int().describe('Metered requests this month') })
    .describe('What the optimizer saved on this developer’s metered requests this UTC month'),
  hooks: z
    .object({
      month: savingsBlock.extend({ events: z.number().int() }),
      allTime: savingsBlock.extend({ events: z.number().int() }),
    })
    .describe(
      'What the connect CLI’s hooks trimmed before requests reached the gateway (client-reported tokens, gateway-priced)',
    ),
  totalUsd: z.number().describe('gateway.savingsUsd + hooks.month.savingsUsd'),
});

const verifyBody = z.looseObject({ user: emailAddress.optional() });

function enrollmentFailure(failure: RedeemFailure): Error {
  switch (failure) {
    case 'user_mismatch':
      return connectErrors.enrollmentUserMismatch();
    case 'user_required':
      return connectErrors.enrollmentUserRequired();
    case 'user_blocked':
      return connectErrors.enrollmentUserBlocked();
    case 'identity_taken':
      return connectErrors.enrollmentIdentityTaken();
    default:
      return connectErrors.enrollmentRejected(failure);
  }
}

const hookBlock = (totals: HookSavingsTotals) => ({
  tokensSaved: totals.tokensSaved,
  savingsUsd: fromMicros(totals.savingsMicros),
  events: totals.events,
});

/** `POST /connect/verify`, `GET /connect/savings`, `POST /connect/hook-savings`. */
export async function connectAccountRoutes(plain: FastifyInstance, options: ConnectAccountOptions): Promise<void> {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  const verified = async (
    identity: Identity,
    extra: Partial<z.infer<typeof verifyResponse>> = {},
  ): Promise<z.infer<typeof verifyResponse>> => {
    const { key } = identity;
    let seat;
    try {
      seat = await options.seats.get(seatOf(identity));
    } catch {
      throw connectErrors.seatStoreUnavailable();
    }
    return {
      status: 'ok',
      user: identity.user,
      team: identity.team,
      tenant: key.tenant,
      key: {
        id: key.id,
        type: key.type,
        keyPrefix: key.keyPrefix,
        source: key.source,
        createdAt: key.createdAt,
        expiresAt: key.expiresAt,
      },
      seat: { offboarded: seat?.offboarded ?? false },
      ...extra,
    };
  };

  /** Spend one use of the link and mint the developer's client key; the redemption is audited. */
  const redeemEnrollment = async (
    account: ConnectAccountOptions,
    request: FastifyRequest,
  ): Promise<z.infer<typeof verifyResponse>> => {
    const body = verifyBody.safeParse(request.body ?? {});
    if (!body.success) throw connectErrors.enrollmentUserRequired();
    const outcome = await account.enrollment.redeem(
      extractClientKey(request.headers) ?? '',
      body.data.user,
      async (tx, redeemed) => ({
        ...redeemed,
        minted: await account.keys.create(
          {
            type: 'client',
            source: 'enrollment',
            user: redeemed.user,
            team: redeemed.link.team,
            tenant: redeemed.link.tenant,
            label: redeemed.link.label,
            createdBy: `enrollment:${redeemed.link.id}`,
          },
          tx,
        ),
      }),
    );
    if (typeof outcome === 'string') throw enrollmentFailure(outcome);
    const { link, user, minted } = outcome;
    await account.audit
      .record({
        category: 'keys',
        action: 'enrollment.redeem',
        actor: `enrollment:${link.id}`,
        target: minted.record.id,
        subject: user,
        requestId: request.traceId,
        outcome: 'success',
      })
      .catch((error: unknown) => request.log.warn({ err: error }, 'enrollment audit entry not recorded'));
    const identity: Identity = {
      keyId: minted.record.id,
      keyType: 'client',
      user,
      team: link.team,
      name: null,
      key: minted.record,
      metadata: {},
    };
    return verified(identity, {
      mintedKey: minted.key,
      enrollment: { id: link.id, usesLeft: link.maxUses - link.uses },
    });
  };

  app.post(
    '/connect/verify',
    {
      config: { acceptsEnrollmentToken: true },
      schema: {
        tags,
        security,
        summary: 'Verify the presented client key, or redeem an enrollment token for a client key of your own',
        description:
          'With a client key: its attribution and seat. With an enrollment token (`aen_…`, minted at POST /admin/v1/enrollment/links) as the bearer: a client key is minted for the team the link names and returned once in `mintedKey`; send `{user}` when the link names no developer. Key failures answer 401 in the machine envelope with their own code; enrollment failures `enrollment_unknown`, `enrollment_expired`, `enrollment_exhausted`, `enrollment_revoked` (401) or `enrollment_user_mismatch` (403).',
        response: {
          200: verifyResponse,
          201: verifyResponse,
          400: connectErrorResponse,
          401: connectErrorResponse,
          403: connectErrorResponse,
          503: connectErrorResponse,
        },
      },
    },
    async (request, reply) => {
      const identity = request.gw.identity;
      if (identity) return verified(identity);
      const enrolled = await redeemEnrollment(options, request);
      return reply.code(201).header('cache-control', 'no-store').send(enrolled);
    },
  );

  app.post(
    '/connect/hook-savings',
    {
      schema: {
        tags,
        security,
        summary: 'Record tokens a client-side hook trimmed before the request reached the gateway',
        body: hookSavingsBody,
        response: {
          200: hookSavingsResponse,
          400: connectErrorResponse,
          401: connectErrorResponse,
          503: connectErrorResponse,
        },
      },
    },
    async (request): Promise<z.infer<typeof hookSavingsResponse>> => {
      const body = request.body;
      const facts = body.model === undefined ? undefined : lookupModel(body.model, options.routing.documents.models);
      const savingsMicros = facts ? Math.round(body.tokensSaved * facts.inputPerMTok) : 0;
      try {
        await options.hookSavings.record(seatOf(identityOf(request)), body.tokensSaved, savingsMicros);
      } catch {
        throw connectErrors.seatStoreUnavailable();
      }
      return { status: 'ok', tokensSaved: body.tokensSaved, savingsUsd: fromMicros(savingsMicros) };
    },
  );

  app.get(
    '/connect/savings',
    {
      schema: {
        tags,
        security,
        summary: 'Realized savings: the optimizer’s on metered requests this month, and the hooks’',
        response: { 200: savingsResponse, 401: connectErrorResponse, 503: connectErrorResponse },
      },
    },
    async (request): Promise<z.infer<typeof savingsResponse>> => {
      const identity = identityOf(request);
      const now = options.clock.now();
      const ref = seatOf(identity);
      try {
        const [usage, month, allTime] = await Promise.all([
          usageFor(options.governance, options.db, identity, now),
          options.hookSavings.totals(ref, monthPeriod(now).start),
          options.hookSavings.totals(ref),
        ]);
        const hooks = { month: hookBlock(month), allTime: hookBlock(allTime) };
        return {
          status: 'ok',
          period: usage.period,
          gateway: { tokensSaved: usage.tokensSaved, savingsUsd: usage.savingsUsd, requests: usage.requests },
          hooks,
          totalUsd: fromMicros(Math.round(usage.savingsUsd * 1_000_000) + month.savingsMicros),
        };
      } catch {
        throw connectErrors.seatStoreUnavailable();
      }
    },
  );
}
