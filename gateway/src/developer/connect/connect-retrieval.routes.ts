import { isoInstant } from '@gw/platform';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { Logger, ZodTypeProvider } from '@gw/platform';
import type { Identity } from '../../identity/caller.js';
import { retrievalLeaseMs, type RetrievalLeaseStore } from '../../optimization/retrieval/lease.store.js';
import type {
  RetrievalCaller,
  RetrievalService,
  RetrieveFailure,
} from '../../optimization/retrieval/retrieval-service.js';
import { connectErrors } from './connect-errors.js';
import { identityOf } from '../../chain/identity/identity-of.js';
import {
  connectErrorResponse,
  connectHeartbeatResponse,
  connectRecallBody,
  connectRecallResponse,
  connectRetrieveBody,
  connectRetrieveResponse,
} from './connect.schema.js';

export interface ConnectRetrievalOptions {
  retrieval: RetrievalService;
  lease: RetrievalLeaseStore;
  logger: Logger;
}

const security = [{ clientKey: [] }];
const tags = ['connect'];
const probeHeader = 'x-gw-retrieve-probe';
const failureErrors: Record<RetrieveFailure, () => Error> = {
  not_found: connectErrors.handleNotFound,
  unavailable: connectErrors.retrievalUnavailable,
  slice_unsupported: connectErrors.sliceUnsupported,
};
const probeDescription =
  'Send `x-gw-retrieve-probe: 1` from a human or CLI check: the call then does not renew the retrieval lease (does not latch retrieval capability) and is not counted as a model retrieval.';

/**
 * `POST /connect/retrieve`, `/connect/recall` and `/connect/mcp-heartbeat`: the connect CLI's tool
 * server forwards a model's retrieval calls here, and renews the key's 6-hour lease with the heartbeat.
 */
export async function connectRetrievalRoutes(plain: FastifyInstance, options: ConnectRetrievalOptions): Promise<void> {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  app.post(
    '/connect/retrieve',
    {
      schema: {
        tags,
        security,
        summary: 'Fetch a stashed original by handle (whole, a line range, or grep windows)',
        description: `404 for an unknown or expired handle; 503 \`retrieval_unavailable\` when the retrieval store cannot answer; 503 \`slice_unsupported\` when the optimizer is too old for startLine, endLine or grep. ${probeDescription}`,
        body: connectRetrieveBody,
        response: {
          200: connectRetrieveResponse,
          400: connectErrorResponse,
          401: connectErrorResponse,
          404: connectErrorResponse,
          503: connectErrorResponse,
        },
      },
    },
    async (request): Promise<z.infer<typeof connectRetrieveResponse>> => {
      const body = request.body;
      const { identity, caller } = await latch(request, options);
      const outcome = await options.retrieval.retrieve(identity, body, caller, 'connect');
      if (outcome.status !== 'ok') throw failureErrors[outcome.status]();
      return { status: 'ok', ...outcome.original };
    },
  );

  app.post(
    '/connect/recall',
    {
      schema: {
        tags,
        security,
        summary: "Search the caller's own stashed originals by meaning",
        description: `Ranked matches, best first. Fails open: no optimizer, no durable store or nothing stashed answers an empty list. ${probeDescription}`,
        body: connectRecallBody,
        response: { 200: connectRecallResponse, 400: connectErrorResponse, 401: connectErrorResponse },
      },
    },
    async (request): Promise<z.infer<typeof connectRecallResponse>> => {
      const body = request.body;
      const { identity } = await latch(request, options);
      return { status: 'ok', matches: await options.retrieval.recall(identity, body.query, body.k, 'connect') };
    },
  );

  app.post(
    '/connect/mcp-heartbeat',
    {
      schema: {
        tags,
        security,
        summary: 'Renew the 6-hour retrieval lease of the calling key',
        description:
          'Authenticated empty POST; send at worker start and every 5 minutes. While the lease is live the gateway treats this key’s clients as able to call gw_retrieve.',
        response: { 200: connectHeartbeatResponse, 401: connectErrorResponse, 503: connectErrorResponse },
      },
    },
    async (request): Promise<z.infer<typeof connectHeartbeatResponse>> => {
      let expiresAt: number;
      try {
        expiresAt = await options.lease.renew(identityOf(request).keyId);
      } catch (error) {
        options.logger.warn({ err: error }, 'retrieval lease renewal failed');
        throw connectErrors.leaseStoreUnavailable();
      }
      return { status: 'ok', leaseExpiresAt: isoInstant(expiresAt), leaseSeconds: retrievalLeaseMs / 1000 };
    },
  );
}

/**
 * A model's retrieval call renews the key's lease; a probe (`x-gw-retrieve-probe: 1`) does not, and is
 * labelled so the regression guard ignores it. Renewal is best-effort: the retrieval itself must not fail on it.
 */
async function latch(
  request: FastifyRequest,
  options: ConnectRetrievalOptions,
): Promise<{ identity: Identity; caller: RetrievalCaller }> {
  const identity = identityOf(request);
  const probe = request.headers[probeHeader];
  const caller: RetrievalCaller = (Array.isArray(probe) ? probe[0] : probe)?.trim() === '1' ? 'probe' : 'model';
  if (caller === 'model')
    await options.lease
      .renew(identity.keyId)
      .catch((error: unknown) => options.logger.warn({ err: error }, 'retrieval lease renewal failed'));
  return { identity, caller };
}
