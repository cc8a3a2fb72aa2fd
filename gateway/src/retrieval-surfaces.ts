import type { FastifyInstance } from 'fastify';
import type { GatewayDeps } from './deps.js';
import { identityChainDeps } from './identity-chain-deps.js';
import { trustedDeviceCaKeys } from '@gw/platform';
import { connectPlugin } from './developer/connect/connect.plugin.js';
import { DeviceProofGate } from './developer/connect/device-proof-gate.js';
import { mcpPlugin } from './mcp/mcp.plugin.js';
import { orgHubPlugin } from './mcp/org/org-hub.plugin.js';
import { composeOrgHub } from './mcp/org/compose-org-hub.js';
import { mcpOAuthCallbackPlugin } from './mcp/oauth/mcp-oauth-callback.plugin.js';
import { RetrievalMetrics } from './optimization/retrieval/retrieval-metrics.js';
import { RetrievalService } from './optimization/retrieval/retrieval-service.js';

/**
 * The retrieval tool server `/mcp`, the organization hub `/mcp/org` and the connect surface: its retrieval routes over the same
 * retrieval service and per-key lease (`deps.retrievalLease`) as `/mcp`, and the seat's own routes (doctor reports,
 * offboarding, device token, directives, and the device-proven key heartbeat and machine report).
 */
export async function registerRetrievalSurfaces(
  app: FastifyInstance,
  deps: Pick<
    GatewayDeps,
    | 'audit'
    | 'clock'
    | 'config'
    | 'coord'
    | 'db'
    | 'endpoint'
    | 'entitlement'
    | 'enrollmentLinks'
    | 'governance'
    | 'keys'
    | 'logger'
    | 'mcpConnectors'
    | 'mcpHub'
    | 'metrics'
    | 'optimizer'
    | 'retrievalLease'
    | 'routing'
    | 'seats'
    | 'settings'
    | 'teamPolicies'
  >,
): Promise<void> {
  const chain = identityChainDeps(deps);
  const retrieval = new RetrievalService({
    optimizer: deps.optimizer,
    metrics: new RetrievalMetrics(deps.metrics),
    logger: deps.logger,
  });
  await app.register(mcpPlugin, { chain, retrieval, lease: deps.retrievalLease, logger: deps.logger });
  const hub = composeOrgHub(deps);
  await app.register(orgHubPlugin, {
    keys: deps.keys,
    teamPolicies: deps.teamPolicies,
    mirror: deps.mcpHub,
    grants: deps.mcpConnectors.grants,
    hub,
  });
  await app.register(mcpOAuthCallbackPlugin, { authorizer: deps.mcpConnectors.authorizer, mirror: deps.mcpHub });
  await app.register(connectPlugin, {
    chain,
    retrieval: { retrieval, lease: deps.retrievalLease, logger: deps.logger },
    seats: { seats: deps.seats.store, deviceTokens: deps.seats.deviceTokens, logger: deps.logger },
    directives: { directives: deps.seats.directives },
    account: {
      governance: deps.governance,
      db: deps.db,
      clock: deps.clock,
      routing: deps.routing,
      seats: deps.seats.store,
      hookSavings: deps.seats.hookSavings,
      enrollment: deps.enrollmentLinks,
      keys: deps.keys,
      audit: deps.audit,
    },
    policy: {
      teamPolicies: deps.teamPolicies,
      routing: deps.routing,
      logger: deps.logger,
      orgHubUrl: hub?.settings.resource ?? null,
    },
    optimizeOutput: {
      optimizer: deps.optimizer,
      hookSavings: deps.seats.hookSavings,
      routing: deps.routing,
      logger: deps.logger,
    },
    mcpOAuth: { authorizer: deps.mcpConnectors.authorizer, audit: deps.audit },
    endpointEnrollment: { endpoint: deps.endpoint, fleetMode: deps.config.GW_MULTI_TENANT, audit: deps.audit },
    device: {
      gate: new DeviceProofGate({
        trust: trustedDeviceCaKeys(deps.config.GW_DEVICE_CA_KEY),
        deploymentId: deps.config.GW_DEPLOYMENT_ID,
        coord: deps.coord,
        clock: deps.clock,
      }),
      keys: deps.keys,
      machines: deps.seats.machines,
      clock: deps.clock,
      logger: deps.logger,
    },
  });
}
