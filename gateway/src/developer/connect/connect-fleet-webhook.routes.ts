import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AuthFailureGuard } from '../../chain/edge/auth-failure-guard.js';
import type { ZodTypeProvider } from '@gw/platform';
import { failingPoliciesPayload, webhookCounts } from '../../fleet/policy-webhook/failing-policies.schema.js';
import type { PolicyWebhookReceiver, ReadyWebhook } from '../../fleet/policy-webhook/policy-webhook.js';
import { connectErrorResponse } from './connect.schema.js';

export interface ConnectFleetWebhookOptions {
  receiver: PolicyWebhookReceiver;
  /** Counts wrong secrets per address, so the secret cannot be guessed at speed. */
  authFailureGuard: AuthFailureGuard;
}

export const fleetWebhookPath = '/connect/fleet-policy-webhook';

// A thousand hosts with their URLs fit well within this; anything larger is not a Fleet delivery.
const webhookBodyLimitBytes = 1024 * 1024;

const webhookQuery = z.looseObject({
  token: z.string().max(512).optional().describe('The webhook secret, for servers that cannot send a bearer'),
});

function presentedSecret(request: FastifyRequest): string | null {
  const authorization = request.headers.authorization;
  const bearer = typeof authorization === 'string' ? /^Bearer\s+(.+)$/i.exec(authorization.trim())?.[1] : undefined;
  if (bearer) return bearer.trim();
  const { token } = (request.query ?? {}) as { token?: unknown };
  return typeof token === 'string' && token !== '' ? token : null;
}

/**
 * `POST /connect/fleet-policy-webhook`: a self-hosted Fleet server's failing-policies webhook. The configuration and
 * the secret are checked when the request arrives, before its body is read, so an unconfigured gateway or a caller
 * without the secret costs no parsing; then the whole body is validated before anything is queued.
 */
export async function connectFleetWebhookRoutes(
  plain: FastifyInstance,
  options: ConnectFleetWebhookOptions,
): Promise<void> {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  const ready = new WeakMap<FastifyRequest, ReadyWebhook>();
  app.post(
    fleetWebhookPath,
    {
      bodyLimit: webhookBodyLimitBytes,
      schema: {
        tags: ['connect'],
        security: [{ webhookSecret: [] }],
        summary:
          'Receive a Fleet server’s failing-policies webhook: a mapped policy queues its remediation per failing host (per-host cooldown); answers content-free counts; 503 when unconfigured',
        querystring: webhookQuery,
        body: failingPoliciesPayload,
        response: {
          200: webhookCounts,
          400: connectErrorResponse,
          401: connectErrorResponse,
          413: connectErrorResponse,
          429: connectErrorResponse,
          503: connectErrorResponse,
        },
      },
      onRequest: async (request) => {
        const webhook = await options.receiver.ready();
        try {
          options.receiver.verify(webhook.config, presentedSecret(request));
        } catch (error) {
          throw (await options.authFailureGuard.recordFailure(request.ip)) ?? error;
        }
        ready.set(request, webhook);
      },
    },
    async (request) => {
      const webhook = ready.get(request) as ReadyWebhook;
      return options.receiver.deliver(webhook, request.body);
    },
  );
}
