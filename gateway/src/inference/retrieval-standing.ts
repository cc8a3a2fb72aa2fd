import type { FastifyRequest } from 'fastify';
import type { RetrievalDiscovery } from '@gw/contracts';
import { carriesGatewayConnector, retrievalDiscoveryOf } from '../optimization/hook/retrieval-discovery.js';
import type { LeaseStanding } from '../optimization/retrieval/lease.store.js';
import type { InferenceDeps } from './inference-deps.js';

export interface RetrievalStanding {
  /** The capability sent to the optimizer (`docs/adr/0021-fresh-reversible-trimming.md`). */
  discovery: RetrievalDiscovery;
  /** The gateway verified retrieval is callable for this caller: a live lease or a connector to its `/mcp`. */
  clientCanRetrieve: boolean;
  /** A live lease: the client itself runs `gw_retrieve`, so the gateway may add the tool definitions at a marker. */
  leaseLive: boolean;
}

/**
 * Where the caller of this request stands on retrieval, decided by the gateway (never by `metadata`, which a caller
 * writes): a hosted connector in the body aimed at the gateway's own `/mcp`, else the key's retrieval lease. A Coord
 * outage reads as no lease: without proof the client can retrieve, nothing reversible may be assumed.
 */
export async function retrievalStandingOf(
  deps: Pick<InferenceDeps, 'optimizer' | 'publicUrl' | 'retrievalLease'>,
  request: FastifyRequest,
  body: Record<string, unknown>,
): Promise<RetrievalStanding> {
  const keyId = request.gw.identity?.keyId ?? null;
  const lease: LeaseStanding =
    deps.optimizer !== null && keyId !== null && deps.retrievalLease
      ? await deps.retrievalLease.standing(keyId).catch(() => 'none' as const)
      : 'none';
  const origins = [...(deps.publicUrl ? [deps.publicUrl] : []), `${request.protocol}://${request.host}`];
  const connector = carriesGatewayConnector(body, origins);
  return {
    discovery: retrievalDiscoveryOf({ connector, lease }),
    clientCanRetrieve: connector || lease === 'live',
    leaseLive: lease === 'live',
  };
}
