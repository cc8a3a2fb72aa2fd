import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AuditStore } from '../../admin/audit/audit.store.js';
import { identityOf } from '../../chain/identity/identity-of.js';
import type { EndpointDeps } from '../../fleet/endpoint-deps.js';
import { liveEnrollSecret } from '../../fleet/live-enroll-secret.js';
import { connectErrorResponse } from './connect.schema.js';
import { gatewayError } from '../../errors.js';

export interface ConnectEndpointEnrollmentOptions {
  /** Null when `GW_ENDPOINT_CONTROL_URL` is unset. */
  endpoint: EndpointDeps | null;
  fleetMode: boolean;
  audit: AuditStore;
}

const enrollmentResponse = z.object({
  status: z.literal('ok'),
  endpointControlUrl: z
    .string()
    .describe('Where the agent enrolls: the origin serving /api/v1/osquery/* and /api/fleet/orbit/*'),
  enrollSecret: z.string().describe('Live credential: give it to the agent installer only; never log or render it'),
});

const notConfigured = () => gatewayError('endpoint_control_not_configured');

/**
 * `POST /connect/endpoint-enrollment`: the organization's endpoint-control URL and agent enroll secret,
 * for the connect CLI to install the agent on the developer's machine. The secret is a live credential: the answer
 * is `no-store`, and the audit records who fetched it, never the value.
 */
export async function connectEndpointEnrollmentRoutes(
  app: FastifyInstance,
  options: ConnectEndpointEnrollmentOptions,
): Promise<void> {
  app.post(
    '/connect/endpoint-enrollment',
    {
      schema: {
        tags: ['connect'],
        security: [{ clientKey: [] }],
        summary: 'The endpoint-control URL and the agent enroll secret, for installing the agent on this machine',
        description:
          '404 `endpoint_control_not_configured` without an evidence service; 409 `enroll_secret_unavailable` until an administrator rotates the secret through the gateway (and again once it was rotated or revoked at the service directly); 502 when the service does not answer; 403 for a service key.',
        response: {
          200: enrollmentResponse,
          401: connectErrorResponse,
          403: connectErrorResponse,
          404: connectErrorResponse,
          409: connectErrorResponse,
          502: connectErrorResponse,
          503: connectErrorResponse,
        },
      },
    },
    async (request, reply) => {
      const identity = identityOf(request);
      const { endpoint } = options;
      if (!endpoint) throw notConfigured();
      const orgId = endpoint.orgs.orgIdOf(options.fleetMode ? identity.key.tenant : null);
      const enrollSecret = await liveEnrollSecret(endpoint, orgId);
      await options.audit.record({
        category: 'fleet',
        action: 'endpoint.enrollment.fetched',
        actor: identity.user ?? identity.keyId,
        target: orgId,
        subject: identity.user,
        requestId: request.id,
        outcome: 'success',
        status: 200,
      });
      void reply.header('cache-control', 'no-store');
      return {
        status: 'ok' as const,
        endpointControlUrl: endpoint.agentUrl ?? `${request.protocol}://${request.host}`,
        enrollSecret,
      };
    },
  );
}
