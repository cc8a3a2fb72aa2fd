import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { QuietLogController, capUnauthenticatedConnections, clientTimeoutOptions, installBaseHooks, installJsonBodyParser, installZodCompilers } from '@gw/platform';
import type { GatewayDeps } from './deps.js';
import { registerOpenApi } from './docs/openapi.plugin.js';
import { healthRoutes } from './health/health.routes.js';
import { metricsRoutes } from './metrics/metrics.js';
import { registerChain } from './chain/index.js';
import { identityChainDeps } from './chain/chain-deps.js';
import { installInferenceErrorHandler } from './inference/error-envelope.js';
import { ensureProviderHeader } from './inference/event-stream-response.js';
import { meRoutes } from './me/me.routes.js';
import { installInferenceBodyParsers } from './inference/body-parser.js';
import { inferenceRoutes } from './inference/inference.routes.js';
import { healthDepsOf, registerAdminPlane } from './admin/index.js';
import { answerFrameworkError, installFallbackErrors } from './admin/fallback-errors.js';
import { scimPlugin } from './scim/scim.plugin.js';
import { devicePlugin } from './device/device.plugin.js';
import { cliLoginPlugin } from './sso/cli-login/cli-login.plugin.js';
import { CliSessionStore } from './sso/cli-login/cli-session.store.js';
import { registerRetrievalSurfaces } from './retrieval/retrieval-surfaces.js';
import { providerOperations } from './admin/providers/providers.operations.js';
import { routingOperations } from './admin/routing/routing.operations.js';
import { governanceOperations } from './admin/caps/governance.operations.js';
import { qualityParityOperations } from './admin/quality/quality-parity.operations.js';
import { optimizerHoldoutConfig } from './admin/quality/holdout-config.js';
import { desktopConnectorOperations } from './admin/policies/desktop-connectors.operations.js';
import { desktopPolicyOperations } from './admin/policies/desktop-policy.operations.js';
import { teamPolicyOperations } from './admin/policies/team-policy.operations.js';
import { agentLaneOperations } from './admin/endpoint/agent-lane.operations.js';
import { endpointOperations } from './admin/endpoint/endpoint.operations.js';
import { fleetStatusOperations } from './admin/endpoint/fleet-status.operations.js';
import { supportBundleOperations } from './admin/settings/support-bundle.operations.js';
import { enrollmentOperations } from './admin/enrollment/enrollment.operations.js';
import { playgroundOperations } from './admin/playground/playground.operations.js';
import { mdmServerOperations } from './admin/endpoint/mdm-servers.operations.js';
import { meteringOperations } from './admin/metering/metering.operations.js';
import { updatesOperations } from './admin/settings/updates.operations.js';
import { environmentVariableSet } from './config.js';
import { addressMatcher } from './chain/edge/address-matcher.js';
import { interfaceVersion } from './docs/openapi.plugin.js';

/** Build the gateway (no listening, no side effects at import): surfaces registered in order. */
export async function buildApp(deps: GatewayDeps): Promise<FastifyInstance> {
  const app = Fastify({
    // fastify bundles its own pino typings; ours is the same logger at runtime.
    loggerInstance: deps.logger as unknown as FastifyBaseLogger,
    bodyLimit: deps.config.GW_BODY_LIMIT_BYTES,
    // Forwarded headers are believed only from the proxies an operator names: anyone else could pick their own address.
    trustProxy: deps.config.GW_TRUSTED_PROXIES ? [...deps.config.GW_TRUSTED_PROXIES] : false,
    requestIdHeader: false,
    logController: new QuietLogController(),
    genReqId: () => '',
    // Requests are identified by their trace id, not fastify's request id (empty above), so a per-request pino
    // child would bind nothing useful while costing an allocation-heavy child (redaction included) on every call.
    childLoggerFactory: (logger) => logger,
    // Path parameters carry ids and e-mail addresses (up to 320 characters, more once percent-encoded).
    routerOptions: { maxParamLength: 1_024 },
    frameworkErrors: answerFrameworkError,
    // Slow clients: headers, whole-request and keep-alive idle timeouts; a response being streamed is not bound by them.
    ...clientTimeoutOptions({ headersTimeoutMs: deps.config.GW_HEADERS_TIMEOUT_MS, requestTimeoutMs: deps.config.GW_REQUEST_TIMEOUT_MS, keepAliveTimeoutMs: deps.config.GW_KEEP_ALIVE_TIMEOUT_MS }),
  });
  const trustedProxies = addressMatcher(deps.config.GW_TRUSTED_PROXIES ?? []);
  capUnauthenticatedConnections(app.server, {
    maxPerAddress: deps.config.GW_UNAUTHENTICATED_CONNECTIONS_PER_ADDRESS,
    exempt: trustedProxies,
  });
  installZodCompilers(app);
  installJsonBodyParser(app);
  installBaseHooks(app);
  installFallbackErrors(app);
  await registerOpenApi(app);

  await app.register(healthRoutes, { lifecycle: deps.lifecycle, holdsNoLease: deps.entitlement.holdsNoLease });
  await app.register(metricsRoutes, { registry: deps.metrics });

  // Inference plane: the request chain applies to everything registered inside this scope.
  await app.register(async (inference) => {
    installInferenceErrorHandler(inference, { spend: deps.spend, clock: deps.clock });
    // Synchronous hooks in callback style: no promise or microtask per request. Added before the chain so a request
    // the chain refuses (a 401, a 429) carries the ids too.
    inference.addHook('onRequest', (request, reply, done) => {
      // Both SDKs read a request id from the response: OpenAI `x-request-id`, Anthropic `request-id`.
      reply.header('x-request-id', request.traceId).header('request-id', request.traceId);
      done();
    });
    registerChain(inference, { ...identityChainDeps(deps), entitlement: deps.entitlement.gate, admission: { coord: deps.coord, clock: deps.clock, governance: deps.governance, spend: deps.spend } });
    installInferenceBodyParsers(inference, deps.config.GW_BODY_LIMIT_BYTES);
    inference.addHook('onSend', (_request, reply, payload, done) => {
      ensureProviderHeader(reply);
      done(null, payload);
    });
    await inference.register(meRoutes, { governance: deps.governance, db: deps.db });
    await inference.register(inferenceRoutes, deps.inference);
  });

  // Client-key surfaces outside /v1/*: the retrieval tool server /mcp and /connect/* (spec 000 §4.2–4.3).
  await registerRetrievalSurfaces(app, deps);

  // Inbound SCIM v2 (spec 000 §4.9): the identity provider's bearer, SCIM media type and error envelope.
  await app.register(scimPlugin, { prefix: '/scim/v2', db: deps.db, users: deps.scim.users, groups: deps.scim.groups });

  // CLI login (spec 000 §4.4): pre-key; billing verifies the browser sign-in, the gateway mints the key.
  await app.register(cliLoginPlugin, { billing: deps.entitlement.billing, sessions: new CliSessionStore(deps.coord, deps.clock), keys: deps.keys, db: deps.db, audit: deps.audit, coord: deps.coord, clock: deps.clock });

  // The developer device page (spec 000 §4.4), gated by the short-lived device token alone.
  await app.register(devicePlugin, { seats: deps.seats.store, deviceTokens: deps.seats.deviceTokens, logger: deps.logger });

  const operations = [
    ...providerOperations({ providers: deps.providers, config: deps.config }),
    ...routingOperations({ routing: deps.routing }),
    ...governanceOperations({ db: deps.db, coord: deps.coord, clock: deps.clock, governance: deps.governance, ring: deps.spend.ring, allowPrivateWebhooks: deps.config.GW_ALLOW_PRIVATE_UPSTREAMS }),
    ...qualityParityOperations({ db: deps.db, clock: deps.clock, holdoutConfig: optimizerHoldoutConfig(deps.optimizer, deps.config.GW_ADMIN_TOKEN, deps.logger) }),
    ...desktopPolicyOperations({ policies: deps.desktopPolicy }),
    ...desktopConnectorOperations({ mirror: deps.mcpHub, connectors: deps.mcpConnectors, allowPrivate: deps.config.GW_ALLOW_PRIVATE_UPSTREAMS }),
    ...teamPolicyOperations({ policies: deps.teamPolicies }),
    ...endpointOperations({ endpoint: deps.endpoint, fleetMode: deps.config.GW_MULTI_TENANT }),
    ...agentLaneOperations({ endpoint: deps.endpoint, fleetMode: deps.config.GW_MULTI_TENANT }),
    ...fleetStatusOperations({ endpoint: deps.endpoint, fleetMode: deps.config.GW_MULTI_TENANT, clock: deps.clock }),
    ...mdmServerOperations({ db: deps.db, clock: deps.clock }),
    ...meteringOperations({ entitlement: deps.entitlement, settings: deps.settings }),
    ...updatesOperations({ billing: deps.entitlement.billing, settings: deps.settings, clock: deps.clock, running: interfaceVersion, environmentHas: environmentVariableSet }),
    ...playgroundOperations({ keys: deps.keys, clock: deps.clock, fleetMode: deps.config.GW_MULTI_TENANT }),
    ...enrollmentOperations({ links: deps.enrollmentLinks, fleetMode: deps.config.GW_MULTI_TENANT }),
    ...supportBundleOperations({ health: await healthDepsOf(deps), config: deps.config, db: deps.db, providers: deps.providers, routing: deps.routing, endpoint: deps.endpoint, clock: deps.clock, billing: deps.entitlement.billing, deploymentId: deps.config.GW_DEPLOYMENT_ID }),
  ];
  // The admin plane mounts its own operations (keys, admin keys, users, settings, audit, traces) plus these.
  await registerAdminPlane(app, deps, operations);
  return app;
}
