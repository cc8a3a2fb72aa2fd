import { cliSsoPollRequest, cliSsoStartRequest, cliSsoStartResponse } from '@gw/contracts';
import type { BillingContext } from './billing-context.js';
import { errorReply, okReply, type BillingReply } from './billing-reply.js';
import type { BillingRequest } from './billing-server.js';
import { authenticatedBody } from './authenticated-body.js';

/** POST /v1/cli-sso/start: the gateway announces a session and its user code; billing answers the page the developer opens. */
export function cliSsoStartRoute(request: BillingRequest, context: BillingContext): BillingReply {
  const body = authenticatedBody(request, context, cliSsoStartRequest);
  if (!body.ok) return body.reply;
  if (!context.cliSessions.start(body.data))
    return errorReply(409, 'session_exists', `session ${body.data.sessionId} was already started`);
  // The user code stays out of the URL: the developer types it, which proves the browser and the terminal are theirs.
  return okReply(cliSsoStartResponse.parse({ browserUrl: `${context.url()}/sso/cli/activate/${body.data.sessionId}` }));
}

/** POST /v1/cli-sso/poll: pending, denied, or who signed in with their teams, role and key lifetime; never a key. */
export function cliSsoPollRoute(request: BillingRequest, context: BillingContext): BillingReply {
  const body = authenticatedBody(request, context, cliSsoPollRequest);
  if (!body.ok) return body.reply;
  const answer = context.cliSessions.answer(body.data.sessionId, context.now());
  if (answer === undefined) return errorReply(404, 'not_found', `no session ${body.data.sessionId}`);
  return okReply(answer);
}
