import type { AppError } from '@gw/platform';
import { gatewayError } from '../../errors.js';

/**
 * A refused or failed console sign-in: the error the browser gets, and the reason code the audit trail and
 * `/admin/auth-events` record (never a token, a code or a claim value).
 */
export class SignInError extends Error {
  constructor(
    readonly reason: string,
    readonly error: AppError,
  ) {
    super(error.message);
    this.name = 'SignInError';
  }
}

export const signInErrors = {
  callback: (reason: string, message?: string) =>
    new SignInError(reason, gatewayError('sso_callback_invalid', message)),
  token: (reason: string, message: string) => new SignInError(reason, gatewayError('sso_token_invalid', message)),
  notAdmin: () => new SignInError('no_console_role', gatewayError('sso_not_admin')),
  unavailable: (message: string) =>
    new SignInError('identity_provider_unavailable', gatewayError('identity_provider_unavailable', message)),
  notConfigured: () => new SignInError('not_configured', gatewayError('sso_not_configured')),
};
