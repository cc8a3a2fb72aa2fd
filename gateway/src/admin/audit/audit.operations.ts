import { auditEventsPage, auditEventsQuery, authEventsQuery, authEventsResponse } from './audit.schema.js';
import type { AuditStore } from './audit.store.js';
import { defineOperation, type AdminOperation } from '../operation.js';

/** The audit lane: needs audit:read, which config:read does not imply. */
export function auditOperations({ audit }: { audit: AuditStore }): AdminOperation[] {
  return [
    defineOperation({
      id: 'audit.events',
      summary: 'Audit trail of admin and GDPR actions, newest first; stable cursor paging',
      method: 'GET',
      capability: 'audit:read',
      v1: { path: '/admin/v1/audit/events' },
      xScope: 'deployment',
      query: auditEventsQuery,
      response: auditEventsPage,
      handler: async ({ query }) => {
        const page = await audit.list(query);
        return { data: page.data, next_cursor: page.nextCursor };
      },
    }),
    defineOperation({
      id: 'audit.authEvents',
      summary: 'Reason-coded auth and cap rejections with remediation hints, newest first',
      method: 'GET',
      capability: 'config:read',
      legacy: [{ path: '/admin/auth-events' }],
      v1: { path: '/admin/v1/audit/auth-events' },
      xScope: 'deployment',
      query: authEventsQuery,
      response: authEventsResponse,
      handler: async ({ query }) => ({ events: await audit.listAuthEvents(query) }),
    }),
  ];
}
