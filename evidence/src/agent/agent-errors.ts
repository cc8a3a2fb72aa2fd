import { normalizeRequestError } from '@gw/platform';
import type { FastifyInstance } from 'fastify';

export type AgentProtocol = 'osquery' | 'orbit';

/**
 * The agent's wire, in the plugin's scope: osquery reads `node_invalid: true` as "enroll again" (the TLS remote API),
 * orbit reads Fleet's `{message, errors: [{name, reason}]}` and re-enrolls on 401. Every other failure keeps its
 * status, so the agents' own retry rules apply (a 503 is retried).
 */
export function installAgentErrorHandler(app: FastifyInstance, protocol: AgentProtocol): void {
  app.setErrorHandler((thrown, request, reply) => {
    const failure = normalizeRequestError(thrown, {
      refusedValues: true,
      storeOutages: true,
      service: 'evidence service',
    });
    if (failure.status >= 500 && failure.kind !== 'store_unavailable')
      request.log.error({ err: thrown }, 'agent request failed');
    const message =
      failure.status >= 500 && failure.kind !== 'store_unavailable'
        ? 'The evidence service failed to handle the request.'
        : failure.message;
    void reply.code(failure.status).headers(failure.headers);
    if (protocol === 'osquery') return reply.send({ node_invalid: failure.status === 401, error: message });
    return reply.send({ message, errors: [{ name: 'base', reason: message }] });
  });
}
