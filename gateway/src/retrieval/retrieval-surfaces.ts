import type { FastifyInstance } from 'fastify';
import type { GatewayDeps } from '../deps.js';
import { AuthFailureGuard } from '../chain/edge/auth-failure-guard.js';
import { connectPlugin } from '../connect/connect.plugin.js';
import type { IdentityChainDeps } from '../chain/index.js';
import { mcpPlugin } from '../mcp/mcp.plugin.js';
import { RetrievalMetrics } from './retrieval-metrics.js';
import { RetrievalService } from './retrieval-service.js';

/** The chain's identity stage configured as the inference plane configures it, for the client-key surfaces outside `/v1/*`. */
export function clientKeyChain(deps: GatewayDeps): IdentityChainDeps {
  return {
    keys: deps.keys,
    clock: deps.clock,
    authFailureGuard: new AuthFailureGuard(deps.coord),
    identityMode: () => deps.settings.get().identityMode,
    multiTenant: deps.config.GW_MULTI_TENANT,
    recordRejection: (rejection) => deps.audit.recordAuthRejection(rejection),
  };
}

/**
 * The retrieval tool server `/mcp` and the connect surface with its retrieval routes (spec 000 §4.2), both over one
 * retrieval service and the per-key lease in `deps.retrievalLease`.
 */
export async function registerRetrievalSurfaces(app: FastifyInstance, deps: GatewayDeps): Promise<void> {
  const chain = clientKeyChain(deps);
  const retrieval = new RetrievalService({ optimizer: deps.optimizer, metrics: new RetrievalMetrics(deps.metrics), logger: deps.logger });
  await app.register(mcpPlugin, { chain, retrieval, lease: deps.retrievalLease, logger: deps.logger });
  await app.register(connectPlugin, { chain, retrieval: { retrieval, lease: deps.retrievalLease, logger: deps.logger } });
}
