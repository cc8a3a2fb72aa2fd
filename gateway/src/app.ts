import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { installBaseHooks, installZodCompilers } from '@gw/platform';
import type { GatewayDeps } from './deps.js';
import { registerOpenApi } from './docs/openapi.plugin.js';
import { healthRoutes } from './health/health.routes.js';
import { metricsRoutes } from './metrics/metrics.js';
import { registerChain } from './chain/index.js';
import { AuthFailureGuard } from './chain/edge/auth-failure-guard.js';
import { installInferenceErrorHandler } from './inference/error-envelope.js';
import { meRoutes } from './me/me.routes.js';
import { registerOperations } from './admin/registrar.js';
import { adminTokenResolver } from './admin/principal.js';
import { keyOperations } from './admin/keys/keys.operations.js';

/** Build the gateway (no listening, no side effects at import): surfaces registered in order. */
export async function buildApp(deps: GatewayDeps): Promise<FastifyInstance> {
  const app = Fastify({
    // fastify bundles its own pino typings; ours is the same logger at runtime.
    loggerInstance: deps.logger as unknown as FastifyBaseLogger,
    bodyLimit: deps.config.GW_BODY_LIMIT_BYTES,
    trustProxy: false,
    requestIdHeader: false,
    genReqId: () => '',
  });
  installZodCompilers(app);
  installBaseHooks(app);
  await registerOpenApi(app);

  await app.register(healthRoutes, { lifecycle: deps.lifecycle });
  await app.register(metricsRoutes, { registry: deps.metrics });

  // Inference plane: the request chain applies to everything registered inside this scope.
  await app.register(async (inference) => {
    installInferenceErrorHandler(inference);
    registerChain(inference, { keys: deps.keys, clock: deps.clock, authFailureGuard: new AuthFailureGuard(deps.coord) });
    await inference.register(meRoutes);
  });

  await registerOperations(app, keyOperations({ keys: deps.keys, clock: deps.clock }), { principals: adminTokenResolver(deps.config.GW_ADMIN_TOKEN) });
  return app;
}
