import type { BillingContext } from './billing-context.js';
import { htmlReply, type BillingReply } from './billing-reply.js';
import type { BillingRequest } from './billing-server.js';
import { verifiedAnswer } from './cli-identity.js';
import { activatePage, messagePage, PAGE_HEADERS } from './cli-pages.js';
import type { CliSessionState } from './cli-sessions.js';

export const CLI_CALLBACK_PATH = '/sso/cli/callback';

/** GET /sso/cli/activate/:id: the code form, for a live session that is still waiting. */
export function cliActivateRoute(_request: BillingRequest, context: BillingContext, sessionId = ''): BillingReply {
  const state = context.cliSessions.state(sessionId, context.now());
  if (state !== 'pending') return closedSession(state);
  return pageReply(200, activatePage(sessionId));
}

/** POST /sso/cli/authorize (form): the code proves the browser belongs to the terminal, the email says who signed in. */
export function cliAuthorizeRoute(request: BillingRequest, context: BillingContext): BillingReply {
  if (request.body === 'too_large') return pageReply(413, messagePage('Request too large', 'The form was too large.'));
  const form = new URLSearchParams(request.body.toString('utf8'));
  const sessionId = form.get('id') ?? '';
  const state = context.cliSessions.state(sessionId, context.now());
  if (state !== 'pending') return closedSession(state);
  const check = context.cliSessions.checkCode(sessionId, form.get('user_code') ?? '');
  if (check === 'wrong')
    return pageReply(400, activatePage(sessionId, 'That is the wrong code. Type the code your terminal shows.'));
  if (check === 'locked')
    return pageReply(
      403,
      messagePage('Sign-in refused', 'Too many wrong codes. Start the login again from your terminal.'),
    );
  return signIn(context, sessionId, form.get('email') ?? '');
}

/** GET /sso/cli/callback: where a finished sign-in lands; the terminal learns the outcome by polling, not from here. */
export function cliCallbackRoute(request: BillingRequest): BillingReply {
  if (request.query.get('status') === 'ok')
    return pageReply(200, messagePage('Signed in', 'You can close this window and return to your terminal.'));
  return pageReply(
    200,
    messagePage('Sign-in did not finish', 'You can close this window; your terminal shows what happened.'),
  );
}

function signIn(context: BillingContext, sessionId: string, email: string): BillingReply {
  if (email.trim() === '') return pageReply(400, activatePage(sessionId, 'Enter the email you sign in with.'));
  const identity = context.directory.lookup(email);
  if (identity === undefined) {
    context.cliSessions.settle(sessionId, { status: 'denied', reason: 'no_company' });
    return pageReply(
      403,
      messagePage('No organization', 'This email does not belong to an organization using this gateway.'),
    );
  }
  context.cliSessions.settle(sessionId, verifiedAnswer(identity, context.cliKeyLifetimeHours));
  return htmlReply(302, messagePage('Signed in', 'Continue to the confirmation page.'), {
    ...PAGE_HEADERS,
    location: `${CLI_CALLBACK_PATH}?status=ok`,
  });
}

/** Unknown and expired look the same to a browser: the link is dead either way. */
function closedSession(state: Exclude<CliSessionState, 'pending'>): BillingReply {
  if (state === 'settled')
    return pageReply(
      409,
      messagePage('Sign-in already finished', 'This login is already complete. Return to your terminal.'),
    );
  return pageReply(
    404,
    messagePage(
      'Sign-in link not found',
      'This link is unknown or has expired. Start the login again from your terminal.',
    ),
  );
}

function pageReply(status: number, html: string): BillingReply {
  return htmlReply(status, html, PAGE_HEADERS);
}
