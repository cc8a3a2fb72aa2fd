import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Db } from '@gw/platform';
import { identityOf } from '../chain/identity/identity-of.js';
import type { Governance } from '../governance/governance.js';
import { fromMicros } from '../governance/money.js';
import { monthPeriod } from '../governance/period.js';
import { usageFor } from '../governance/self-service.js';
import { lookupModel } from '../pricing/known-models.js';
import type { RoutingStore } from '../routing/routing.store.js';
import type { HookSavingsStore, HookSavingsTotals } from '../seats/hook-savings.store.js';
import type { SeatStore } from '../seats/seat.store.js';
import { seatOf } from '../seats/seat.js';
import { connectErrors } from './connect-errors.js';
import { connectErrorResponse } from './connect.schema.js';

export interface ConnectAccountOptions {
  governance: Governance;
  db: Db;
  routing: RoutingStore;
  seats: SeatStore;
  hookSavings: HookSavingsStore;
}

const security = [{ clientKey: [] }];
const tags = ['connect'];

const verifyResponse = z.object({
  status: z.literal('ok'),
  user: z.string().nullable(),
  team: z.string(),
  tenant: z.string().nullable().describe('Fleet mode: the key’s tenant'),
  key: z.object({ id: z.string(), type: z.enum(['client', 'service']), keyPrefix: z.string(), source: z.string(), createdAt: z.string(), expiresAt: z.string().nullable() }),
  seat: z.object({ offboarded: z.boolean().describe('The seat was offboarded and not re-enrolled since') }),
});

// One hook event saves at most what a whole context window holds; anything larger is not a measurement.
const maxTokensPerEvent = 2_000_000;
const hookSavingsBody = z.strictObject({
  tokensSaved: z.number().int().min(0).max(maxTokensPerEvent).describe('Tokens the hook kept out of the request'),
  model: z.string().regex(/^[\x21-\x7e]{1,256}$/).optional().describe('The model the trimmed request went to; prices the saving when the gateway knows it'),
});
const hookSavingsResponse = z.object({ status: z.literal('ok'), tokensSaved: z.number().int(), savingsUsd: z.number().describe('Priced at the model’s input price; 0 when the model is absent or unknown') });

const savingsBlock = z.object({ tokensSaved: z.number().int(), savingsUsd: z.number() });
const savingsResponse = z.object({
  status: z.literal('ok'),
  period: z.object({ month: z.string(), start: z.string(), end: z.string() }),
  gateway: savingsBlock.extend({ requests: z.number().int().describe('Metered requests this month') }).describe('What the optimizer saved on this developer’s metered requests this UTC month'),
  hooks: z
    .object({ month: savingsBlock.extend({ events: z.number().int() }), allTime: savingsBlock.extend({ events: z.number().int() }) })
    .describe('What the connect CLI’s hooks trimmed before requests reached the gateway (client-reported tokens, gateway-priced)'),
  totalUsd: z.number().describe('gateway.savingsUsd + hooks.month.savingsUsd'),
});

const hookBlock = (totals: HookSavingsTotals) => ({ tokensSaved: totals.tokensSaved, savingsUsd: fromMicros(totals.savingsMicros), events: totals.events });

/** `POST /connect/verify`, `GET /connect/savings`, `POST /connect/hook-savings` (spec 000 §4.3). */
export async function connectAccountRoutes(app: FastifyInstance, options: ConnectAccountOptions): Promise<void> {
  app.post(
    '/connect/verify',
    {
      schema: {
        tags,
        security,
        summary: 'Verify the presented client key (the CLI’s enrollment check)',
        description: 'A key that is missing, unknown, expired, revoked or whose developer is deactivated answers 401 in the machine envelope with its precise code and a hint. The body is ignored.',
        response: { 200: verifyResponse, 401: connectErrorResponse, 503: connectErrorResponse },
      },
    },
    async (request): Promise<z.infer<typeof verifyResponse>> => {
      const identity = identityOf(request);
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
        key: { id: key.id, type: key.type, keyPrefix: key.keyPrefix, source: key.source, createdAt: key.createdAt, expiresAt: key.expiresAt },
        seat: { offboarded: seat?.offboarded ?? false },
      };
    },
  );

  app.post(
    '/connect/hook-savings',
    { schema: { tags, security, summary: 'Record tokens a client-side hook trimmed before the request reached the gateway', body: hookSavingsBody, response: { 200: hookSavingsResponse, 400: connectErrorResponse, 401: connectErrorResponse, 503: connectErrorResponse } } },
    async (request): Promise<z.infer<typeof hookSavingsResponse>> => {
      const body = request.body as z.infer<typeof hookSavingsBody>;
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
    { schema: { tags, security, summary: 'Realized savings: the optimizer’s on metered requests this month, and the hooks’', response: { 200: savingsResponse, 401: connectErrorResponse, 503: connectErrorResponse } } },
    async (request): Promise<z.infer<typeof savingsResponse>> => {
      const identity = identityOf(request);
      const now = options.governance.deps.clock.now();
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
