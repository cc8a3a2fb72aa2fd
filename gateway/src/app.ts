import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import {
  QuietLogController,
  capUnauthenticatedConnections,
  clientTimeoutOptions,
  installBaseHooks,
  installJsonBodyParser,
  zodSchemaController,
} from '@gw/platform';
import type { GatewayDeps } from './deps.js';
import { registerOpenApi } from './service/docs/openapi.plugin.js';
import { healthRoutes } from './service/health/health.routes.js';
import { metricsRoutes } from './metering/metrics/metrics.js';
import { registerChain } from './chain/index.js';
import { identityChainDeps } from './identity-chain-deps.js';
import { installInferenceErrorHandler } from './inference/error-envelope.js';
import { ensureProviderHeader } from './inference/event-stream-response.js';
import { meRoutes } from './developer/me/me.routes.js';
import { installInferenceBodyParsers } from './inference/body-parser.js';
import { inferenceRoutes } from './inference/inference.routes.js';
import { realtimeRoutes } from './inference/realtime/realtime.routes.js';
import { healthDepsOf, registerAdminPlane } from './admin-operations.js';
import { answerFrameworkError, installFallbackErrors } from './service/fallback-errors.js';
import { scimPlugin } from './identity/scim/scim.plugin.js';
import { devicePlugin } from './developer/device/device.plugin.js';
import { cliLoginPlugin } from './developer/cli-login/cli-login.plugin.js';
import { CliSessionStore } from './developer/cli-login/cli-session.store.js';
import { registerRetrievalSurfaces } from './retrieval-surfaces.js';
import { providerOperations } from './providers/providers.operations.js';
import { routingOperations } from './routing/routing.operations.js';
import { governanceOperations } from './governance/governance.operations.js';
import { qualityParityOperations } from './optimization/quality/admin/quality-parity.operations.js';
import { optimizerHoldoutConfig } from './optimization/quality/admin/holdout-config.js';
import { optimizerAdminOperations } from './optimization/hook/optimizer-admin.operations.js';
import { spendConnectorOperations } from './governance/spend/connectors/spend-connectors.operations.js';
import { guardrailOperations } from './governance/guardrails/guardrails.operations.js';
import { contentSettingsOperations } from './metering/traces/content-settings.operations.js';
import { desktopConnectorOperations } from './mcp/hub/desktop-connectors.operations.js';
import { desktopPolicyOperations } from './policies/admin/desktop-policy.operations.js';
import { desktopProfileOperations } from './policies/admin/desktop-profile.operations.js';
import { connectOpenPlugin } from './developer/connect/connect-open.plugin.js';
import { PolicyWebhookReceiver } from './fleet/policy-webhook/policy-webhook.js';
import { AuthFailureGuard } from './chain/edge/auth-failure-guard.js';
import { teamPolicyOperations } from './policies/admin/team-policy.operations.js';
import { agentLaneOperations } from './fleet/admin/agent-lane.operations.js';
import { endpointOperations } from './fleet/admin/endpoint.operations.js';
import { policyPushOperations } from './fleet/admin/policy-push.operations.js';
import { fleetStatusOperations } from './fleet/admin/fleet-status.operations.js';
import { supportBundleOperations } from './service/support-bundle.operations.js';
import { provisioningTokenOperations } from './identity/provisioning/provisioning-tokens.operations.js';
import { enrollmentOperations } from './identity/enrollment/enrollment.operations.js';
import { playgroundOperations } from './inference/playground/playground.operations.js';
import { mdmServerOperations } from './fleet/admin/mdm-servers.operations.js';
import { mdmProfileOperations } from './fleet/admin/mdm-profile.operations.js';
import { installerOperations } from './fleet/admin/installers.operations.js';
import { retiredServerLaneOperations } from './fleet/admin/retired-server-lane.operations.js';
import { meteringOperations } from './billing/metering.operations.js';
import { updatesOperations } from './service/updates.operations.js';
import { setupOperations } from './service/setup/setup.operations.js';
import { consoleSsoPlugin } from './identity/sso/console-sso.plugin.js';
import { idpConfigOperations } from './identity/sso/idp-config.operations.js';
import { environmentVariableSet } from './config.js';
import { interfaceVersion } from './service/docs/openapi.plugin.js';
import { addressMatcher } from './chain/edge/address-matcher.js';

/** Build the gateway (no listening, no side effects at import): surfaces registered in order. */
export async function buildApp(deps: GatewayDeps): Promise<FastifyInstance> {
  const app = Fastify({
    schemaController: zodSchemaController,
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
    ...clientTimeoutOptions({
      headersTimeoutMs: deps.config.GW_HEADERS_TIMEOUT_MS,
      requestTimeoutMs: deps.config.GW_REQUEST_TIMEOUT_MS,
      keepAliveTimeoutMs: deps.config.GW_KEEP_ALIVE_TIMEOUT_MS,
    }),
  });
  const trustedProxies = addressMatcher(deps.config.GW_TRUSTED_PROXIES ?? []);
  capUnauthenticatedConnections(app.server, {
    maxPerAddress: deps.config.GW_UNAUTHENTICATED_CONNECTIONS_PER_ADDRESS,
    exempt: trustedProxies,
  });
  installJsonBodyParser(app);
  installBaseHooks(app);
  installFallbackErrors(app);
  await registerOpenApi(app);

  await app.register(healthRoutes, { lifecycle: deps.lifecycle, holdsNoLease: deps.entitlement.holdsNoLease });
  await app.register(metricsRoutes, { registry: deps.metrics });

  // Inference plane: the request chain applies to everything registered inside this scope.
  await app.register(async (inference) => {
    installInferenceErrorHandler(inference);
    // Synchronous hooks in callback style: no promise or microtask per request. Added before the chain so a request
    // the chain refuses (a 401, a 429) carries the ids too.
    inference.addHook('onRequest', (request, reply, done) => {
      // Both SDKs read a request id from the response: OpenAI `x-request-id`, Anthropic `request-id`.
      reply.header('x-request-id', request.traceId).header('request-id', request.traceId);
      // Every answer says whether the response cache served it; a lane that consults the cache overwrites this.
      reply.header('x-gw-cache', 'bypass');
      done();
    });
    registerChain(inference, {
      ...identityChainDeps(deps),
      entitlement: deps.entitlement.gate,
      admission: { coord: deps.coord, clock: deps.clock, governance: deps.governance, guardrails: deps.guardrails },
      metering: deps.inference.meter,
    });
    installInferenceBodyParsers(inference, deps.config.GW_BODY_LIMIT_BYTES);
    inference.addHook('onSend', (_request, reply, payload, done) => {
      ensureProviderHeader(reply);
      done(null, payload);
    });
    await inference.register(meRoutes, { governance: deps.governance, db: deps.db, clock: deps.clock });
    await inference.register(realtimeRoutes, {
      inference: deps.inference,
      standing: { coord: deps.coord, governance: deps.governance },
      maxMessageBytes: deps.config.GW_REALTIME_MAX_MESSAGE_BYTES,
      idleTimeoutMs: deps.config.GW_REALTIME_IDLE_TIMEOUT_MS,
    });
    await inference.register(inferenceRoutes, deps.inference);
  });

  // Client-key surfaces outside /v1/*: the retrieval tool server /mcp and /connect/*.
  await registerRetrievalSurfaces(app, deps);
  // Connect routes outside the key chain, each checking its own caller (the desktop bootstrap, the fleet webhook).
  const authFailureGuard = new AuthFailureGuard(deps.coord);
  await app.register(connectOpenPlugin, {
    desktopBootstrap: {
      policies: deps.desktopPolicy,
      keys: deps.keys,
      publicUrl: deps.config.GW_PUBLIC_URL,
      authFailureGuard,
    },
    fleetWebhook: {
      receiver: new PolicyWebhookReceiver({
        configPath: deps.config.GW_FLEET_WEBHOOK_CONFIG,
        endpoint: deps.endpoint,
        coord: deps.coord,
        logger: deps.logger,
      }),
      authFailureGuard,
    },
  });

  // Inbound SCIM v2: the identity provider's bearer, SCIM media type and error envelope.
  await app.register(scimPlugin, {
    prefix: '/scim/v2',
    db: deps.db,
    users: deps.scim.users,
    groups: deps.scim.groups,
    provisioningTokens: deps.scim.provisioningTokens,
  });

  // CLI login: pre-key; billing verifies the browser sign-in, the gateway mints the key.
  await app.register(cliLoginPlugin, {
    billing: deps.entitlement.billing,
    sessions: new CliSessionStore(deps.coord, deps.clock),
    keys: deps.keys,
    db: deps.db,
    audit: deps.audit,
    coord: deps.coord,
    clock: deps.clock,
  });

  // The developer device page, gated by the short-lived device token alone.
  await app.register(devicePlugin, {
    seats: deps.seats.store,
    deviceTokens: deps.seats.deviceTokens,
    logger: deps.logger,
  });

  // Console sign-in with the organisation's identity provider (docs/adr/0026-console-sessions.md).
  const sso = deps.consoleSso;
  await app.register(consoleSsoPlugin, {
    db: deps.db,
    coord: deps.coord,
    configs: sso.configs,
    flow: sso.flow,
    sessions: sso.sessions,
    store: sso.store,
    maxAgeMs: sso.maxAgeMs,
    idleMs: sso.idleMs,
    publicUrl: deps.config.GW_PUBLIC_URL,
    audit: sso.audit,
    now: () => deps.clock.now(),
  });

  const operations = [
    ...idpConfigOperations({
      configs: sso.configs,
      sessions: sso.store,
      discovery: sso.discovery,
      discover: sso.discover,
      publicUrl: deps.config.GW_PUBLIC_URL,
    }),
    ...setupOperations({
      db: deps.db,
      clock: deps.clock,
      providers: deps.providers,
      routing: deps.routing,
      idpConfigs: sso.configs,
    }),
    ...providerOperations({ providers: deps.providers, config: deps.config }),
    ...routingOperations({ routing: deps.routing }),
    ...governanceOperations({
      db: deps.db,
      coord: deps.coord,
      clock: deps.clock,
      governance: deps.governance,
      ring: deps.spend.ring,
      allowPrivateWebhooks: deps.config.GW_ALLOW_PRIVATE_UPSTREAMS,
    }),
    ...qualityParityOperations({
      db: deps.db,
      clock: deps.clock,
      holdoutConfig: optimizerHoldoutConfig(
        deps.optimizer,
        deps.config.GW_OPTIMIZER_ADMIN_TOKEN ?? deps.config.GW_ADMIN_TOKEN,
        deps.logger,
      ),
    }),
    ...optimizerAdminOperations({ optimizer: deps.optimizerAdmin }),
    ...contentSettingsOperations({
      settings: deps.settings,
      retention: deps.contentRetention,
      contentKeyConfigured: deps.config.GW_CONTENT_KEY !== undefined,
    }),
    ...spendConnectorOperations({
      db: deps.db,
      store: deps.spendConnectors.store,
      sync: deps.spendConnectors.sync,
      allowPrivate: deps.config.GW_ALLOW_PRIVATE_UPSTREAMS,
    }),
    ...guardrailOperations({
      store: deps.guardrailStore,
      contentMode: () => deps.settings.get().contentMode,
      allowPrivate: deps.config.GW_ALLOW_PRIVATE_UPSTREAMS,
    }),
    ...desktopPolicyOperations({ policies: deps.desktopPolicy }),
    ...desktopProfileOperations({
      policies: deps.desktopPolicy,
      publicUrl: deps.config.GW_PUBLIC_URL,
      deploymentId: deps.config.GW_DEPLOYMENT_ID,
    }),
    ...desktopConnectorOperations({
      mirror: deps.mcpHub,
      connectors: deps.mcpConnectors,
      allowPrivate: deps.config.GW_ALLOW_PRIVATE_UPSTREAMS,
    }),
    ...teamPolicyOperations({ policies: deps.teamPolicies }),
    ...endpointOperations({ endpoint: deps.endpoint, fleetMode: deps.config.GW_MULTI_TENANT }),
    ...agentLaneOperations({ endpoint: deps.endpoint, fleetMode: deps.config.GW_MULTI_TENANT }),
    ...policyPushOperations({ endpoint: deps.endpoint, fleetMode: deps.config.GW_MULTI_TENANT, audit: deps.audit }),
    ...fleetStatusOperations({ endpoint: deps.endpoint, fleetMode: deps.config.GW_MULTI_TENANT, clock: deps.clock }),
    ...mdmServerOperations({ db: deps.db, clock: deps.clock }),
    ...mdmProfileOperations({
      endpoint: deps.endpoint,
      fleetMode: deps.config.GW_MULTI_TENANT,
      publicUrl: deps.config.GW_PUBLIC_URL,
      deploymentId: deps.config.GW_DEPLOYMENT_ID,
    }),
    ...installerOperations({ db: deps.db, clock: deps.clock, maxBytes: deps.config.GW_FLEET_INSTALLER_MAX_BYTES }),
    ...retiredServerLaneOperations(),
    ...meteringOperations({ entitlement: deps.entitlement, settings: deps.settings }),
    ...updatesOperations({
      billing: deps.entitlement.billing,
      settings: deps.settings,
      clock: deps.clock,
      running: interfaceVersion,
      environmentHas: environmentVariableSet,
    }),
    ...playgroundOperations({ keys: deps.keys, clock: deps.clock, fleetMode: deps.config.GW_MULTI_TENANT }),
    ...provisioningTokenOperations({ tokens: deps.scim.provisioningTokens }),
    ...enrollmentOperations({ links: deps.enrollmentLinks, fleetMode: deps.config.GW_MULTI_TENANT }),
    ...supportBundleOperations({
      health: await healthDepsOf(deps),
      config: deps.config,
      db: deps.db,
      providers: deps.providers,
      routing: deps.routing,
      endpoint: deps.endpoint,
      clock: deps.clock,
      billing: deps.entitlement.billing,
      deploymentId: deps.config.GW_DEPLOYMENT_ID,
    }),
  ];
  // The admin plane mounts its own operations (keys, admin keys, users, settings, audit, traces) plus these.
  await registerAdminPlane(app, deps, operations);
  return app;
}
