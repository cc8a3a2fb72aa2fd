import type { FastifyInstance } from 'fastify';
import { installConnectErrorHandler } from '../connect/connect-errors.js';
import { cliLoginRoutes, type CliLoginOptions } from './cli-login.routes.js';

/**
 * The CLI login handshake (`/sso/cli/*`). Its client is the connect CLI, so it answers in the connect
 * surface's machine envelope. Its bodies are empty: whatever a CLI sends with the start is ignored.
 */
export async function cliLoginPlugin(app: FastifyInstance, options: CliLoginOptions): Promise<void> {
  installConnectErrorHandler(app);
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 16 * 1024 }, (_request, _body, done) =>
    done(null, undefined),
  );
  await app.register(cliLoginRoutes, options);
}
