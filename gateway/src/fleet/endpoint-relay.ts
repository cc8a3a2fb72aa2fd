import { endpointControlUnreachable, type EndpointAnswer } from './endpoint-control.client.js';
import { gatewayError, relayedError } from '../errors.js';

const relayedStatuses = new Set([400, 404, 409]);

/**
 * What the gateway answers for the evidence service's answer: its body on success; its own 400, 404 and 409 with their
 * codes (the caller's request was wrong: an unknown host, a monitor-only host); anything else is the service failing,
 * 502, never blamed on the caller. A refused admin bearer is a misconfiguration the operator must see by name.
 */
export function relayEndpointAnswer(answer: EndpointAnswer): unknown {
  if (answer.status >= 200 && answer.status < 300) return answer.body;
  const error = (answer.body as { error?: { code?: unknown; message?: unknown } } | null)?.error;
  if (relayedStatuses.has(answer.status) && typeof error?.code === 'string' && typeof error.message === 'string') {
    throw relayedError({ status: answer.status, code: error.code, message: error.message });
  }
  if (answer.status === 401 || answer.status === 403) {
    throw gatewayError('endpoint_control_refused');
  }
  throw endpointControlUnreachable();
}
