import type { AuditEntryInput } from '../../admin/audit/audit.store.js';
import { authCategory } from '../../admin/audit/audit.store.js';

/** What console sign-in writes to the audit trail; each entry is also an `/admin/auth-events` row. */
export type ConsoleAuthAction =
  | 'console_sign_in'
  | 'console_sign_in_refused'
  | 'console_sign_out'
  | 'console_session_refused'
  | 'console_csrf_refused';

const hints: Record<string, string> = {
  no_console_role:
    'Add the user to the SCIM adminGroup, or to a group roleGroupMap maps to a role (PUT /admin/v1/sso).',
  identity_provider_unavailable: 'The identity provider could not be reached; nobody was signed in. Retry shortly.',
  role_lost: 'The user left every group that grants a console role; the session was ended.',
  csrf: 'A console change must carry x-gw-csrf-token from the console’s own origin.',
};

export type AuditRecorder = (entry: AuditEntryInput) => Promise<void>;

/** One content-free console auth entry: who (when known), what, why; never a token, a code or a claim value. */
export function consoleAuthEntry(input: {
  action: ConsoleAuthAction;
  user: string | null;
  status: number;
  reason?: string;
  requestId?: string | null;
  endpoint: string;
}): AuditEntryInput {
  return {
    category: authCategory,
    action: input.action,
    actor: input.user ? `sso:${input.user}` : 'anonymous',
    target: null,
    subject: input.user,
    requestId: input.requestId ?? null,
    outcome: input.status < 400 ? 'success' : 'failure',
    status: input.status,
    details: {
      endpoint: input.endpoint,
      reason: input.reason ?? null,
      hint: (input.reason && hints[input.reason]) ?? null,
    },
  };
}
