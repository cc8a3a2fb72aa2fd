import type { FastifyInstance } from 'fastify';
import { installConnectErrorHandler } from './connect-errors.js';
import {
  connectDesktopBootstrapRoutes,
  type ConnectDesktopBootstrapOptions,
} from './connect-desktop-bootstrap.routes.js';
import { connectFleetWebhookRoutes, type ConnectFleetWebhookOptions } from './connect-fleet-webhook.routes.js';

export interface ConnectOpenPluginOptions {
  desktopBootstrap: ConnectDesktopBootstrapOptions;
  fleetWebhook: ConnectFleetWebhookOptions;
}

/**
 * The connect routes that do not sit behind the client-key chain, each checking its caller itself, in the connect
 * error envelope: the desktop bootstrap (fetched before the client holds a key; a presented key is still verified) and
 * the failing-policies webhook (a fleet server holding the webhook secret, not a developer's key).
 */
export async function connectOpenPlugin(app: FastifyInstance, options: ConnectOpenPluginOptions): Promise<void> {
  installConnectErrorHandler(app);
  await app.register(connectDesktopBootstrapRoutes, options.desktopBootstrap);
  await app.register(connectFleetWebhookRoutes, options.fleetWebhook);
}
