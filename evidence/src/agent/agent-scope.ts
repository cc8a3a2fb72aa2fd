import type { FastifyInstance } from 'fastify';
import { installAgentErrorHandler, type AgentProtocol } from './agent-errors.js';
import { evidenceError } from '../errors.js';

/**
 * The agents' bodies are JSON whatever they declare: orbit's Go client sends no `Content-Type` at all, and fastify
 * would refuse that with 415. In the agent plugins' scope every body is read as JSON; anything else is a 400 in the
 * agent's own error format.
 */
function readAgentBodiesAsJson(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => {
    try {
      done(null, JSON.parse(typeof body === 'string' ? body : body.toString('utf8')) as unknown);
    } catch {
      done(evidenceError('invalid_request', 'The request body is not JSON.'), undefined);
    }
  });
}

/** An agent plugin's scope: the protocol's own error bodies, and bodies read as JSON whatever they declare. */
export function prepareAgentScope(app: FastifyInstance, protocol: AgentProtocol): void {
  installAgentErrorHandler(app, protocol);
  readAgentBodiesAsJson(app);
}
