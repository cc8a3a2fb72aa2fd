import { AppError, normalizeRequestError } from '@gw/platform';
import type { FastifyInstance } from 'fastify';

/** Errors of the agent lane; the plugin's handler renders them in the agent protocol's own body, not ours. */
export const agentErrors = {
  nodeInvalid: () => new AppError({ status: 401, code: 'node_invalid', message: 'The node key is unknown or was replaced: enroll again.' }),
  enrollRefused: () => new AppError({ status: 401, code: 'enroll_refused', message: 'The enroll secret is not valid for any organization.' }),
  notFound: (what: string) => new AppError({ status: 404, code: 'not_found', message: `${what} was not found for this host.` }),
  conflict: (message: string) => new AppError({ status: 409, code: 'conflict', message }),
  invalid: (message: string) => new AppError({ status: 400, code: 'invalid_request', message }),
} as const;

export type AgentProtocol = 'osquery' | 'orbit';

/**
 * The agent's wire, in the plugin's scope: osquery reads `node_invalid: true` as "enroll again" (the TLS remote API),
 * orbit reads Fleet's `{message, errors: [{name, reason}]}` and re-enrolls on 401. Every other failure keeps its
 * status, so the agents' own retry rules apply (a 503 is retried).
 */
export function installAgentErrorHandler(app: FastifyInstance, protocol: AgentProtocol): void {
  app.setErrorHandler((thrown, request, reply) => {
    const failure = normalizeRequestError(thrown, { refusedValues: true, storeOutages: true, service: 'evidence service' });
    if (failure.status >= 500 && failure.kind !== 'store_unavailable') request.log.error({ err: thrown }, 'agent request failed');
    const message = failure.status >= 500 && failure.kind !== 'store_unavailable' ? 'The evidence service failed to handle the request.' : failure.message;
    void reply.code(failure.status).headers(failure.headers);
    if (protocol === 'osquery') return reply.send({ node_invalid: failure.status === 401, error: message });
    return reply.send({ message, errors: [{ name: 'base', reason: message }] });
  });
}
