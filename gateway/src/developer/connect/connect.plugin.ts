import type { FastifyInstance } from 'fastify';
import { registerIdentityChain, type IdentityChainDeps } from '../../chain/index.js';
import { connectErrors, installConnectErrorHandler } from './connect-errors.js';
import { connectAccountRoutes, type ConnectAccountOptions } from './connect-account.routes.js';
import { connectPolicyRoutes, type ConnectPolicyOptions } from './connect-policy.routes.js';
import { connectOptimizeOutputRoutes, type ConnectOptimizeOutputOptions } from './connect-optimize-output.routes.js';
import { connectDirectiveRoutes, type ConnectDirectiveOptions } from './connect-directive.routes.js';
import {
  connectEndpointEnrollmentRoutes,
  type ConnectEndpointEnrollmentOptions,
} from './connect-endpoint-enrollment.routes.js';
import { connectMcpOAuthRoutes, type ConnectMcpOAuthOptions } from './connect-mcp-oauth.routes.js';
import { connectRetrievalRoutes, type ConnectRetrievalOptions } from './connect-retrieval.routes.js';
import { connectSeatRoutes, type ConnectSeatOptions } from './connect-seat.routes.js';
import { connectDeviceRoutes, type ConnectDeviceOptions } from './connect-device.routes.js';

export interface ConnectPluginOptions {
  chain: IdentityChainDeps;
  retrieval: ConnectRetrievalOptions;
  seats: ConnectSeatOptions;
  directives: ConnectDirectiveOptions;
  account: ConnectAccountOptions;
  policy: ConnectPolicyOptions;
  optimizeOutput: ConnectOptimizeOutputOptions;
  endpointEnrollment: ConnectEndpointEnrollmentOptions;
  mcpOAuth: ConnectMcpOAuthOptions;
  device: ConnectDeviceOptions;
}

// Connect bodies are small control messages.
const connectBodyLimitBytes = 256 * 1024;

/**
 * The connect surface (`/connect/*`): client-key authenticated through the chain's identity stage, no
 * admin capability, one error envelope. Register further connect routes inside this plugin.
 */
export async function connectPlugin(app: FastifyInstance, options: ConnectPluginOptions): Promise<void> {
  installConnectErrorHandler(app);
  registerIdentityChain(app, options.chain);
  // Service keys are for /v1/* only; /connect/* serves developers' tools. `/connect/verify` still reports
  // any key's own details, so a pipeline can check the key it holds.
  app.addHook('preHandler', async (request) => {
    if (request.gw.identity?.keyType === 'service' && request.routeOptions.url !== '/connect/verify')
      throw connectErrors.serviceKeyNotAllowed();
  });
  // "Authenticated empty POST" (the heartbeat) may still say `content-type: application/json`: an empty body is no body.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'string', bodyLimit: connectBodyLimitBytes },
    (_request, body, done) => {
      const text = typeof body === 'string' ? body : body.toString('utf8');
      if (text.trim() === '') return done(null, undefined);
      try {
        done(null, JSON.parse(text) as unknown);
      } catch {
        done(connectErrors.invalidJson(), undefined);
      }
    },
  );
  // An empty body is no body whatever its declared type (`curl -d ''` says form-urlencoded): the empty POSTs
  // (offboard, heartbeat) always answer. A non-empty body that is not JSON is refused as before.
  app.addContentTypeParser('*', { parseAs: 'string', bodyLimit: connectBodyLimitBytes }, (_request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, undefined);
    done(connectErrors.unsupportedMediaType(), undefined);
  });
  await app.register(connectRetrievalRoutes, options.retrieval);
  await app.register(connectSeatRoutes, options.seats);
  await app.register(connectDirectiveRoutes, options.directives);
  await app.register(connectAccountRoutes, options.account);
  await app.register(connectPolicyRoutes, options.policy);
  await app.register(connectOptimizeOutputRoutes, options.optimizeOutput);
  await app.register(connectEndpointEnrollmentRoutes, options.endpointEnrollment);
  await app.register(connectMcpOAuthRoutes, options.mcpOAuth);
  await app.register(connectDeviceRoutes, options.device);
}
