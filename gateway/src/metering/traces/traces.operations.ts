import { Keyring } from '@gw/platform';
import { gatewayError, gatewayErrors } from '../../errors.js';
import {
  facetsQuery,
  facetsResponse,
  sessionsQuery,
  sessionsResponse,
  traceContentResponse,
  traceIdParams,
  traceListQuery,
  tracePage,
  traceRecord,
} from './trace.schema.js';
import type { TraceStore } from './trace.store.js';
import { adminErrors } from '../../admin/error-envelope.js';
import { defineOperation, type AdminOperation } from '../../admin/operation.js';

export interface TraceOperationDeps {
  traces: TraceStore;
  /** `GW_CONTENT_KEY` (64 hex): the key trace content is sealed under; absent = no content can be read. */
  contentKey: string | undefined;
}

/** Traces: a metadata lane for everyone with traces:read and a content lane for traces:content. */
export function traceOperations({ traces, contentKey }: TraceOperationDeps): AdminOperation[] {
  const keyring = contentKey ? Keyring.fromHexKey(contentKey) : null;
  return [
    defineOperation({
      id: 'traces.list',
      summary: 'Trace metadata, newest first, with cursor paging and filters',
      method: 'GET',
      capability: 'observability:read',
      legacy: [{ path: '/admin/observability/traces' }],
      v1: { path: '/admin/v1/traces' },
      xScope: 'tenant',
      query: traceListQuery,
      response: tracePage,
      handler: async ({ query }) => {
        const page = await traces.list(query);
        return { data: page.data, next_cursor: page.nextCursor };
      },
    }),
    defineOperation({
      id: 'traces.facets',
      summary: 'Counts by provider, model, team, user and status over a look-back window',
      method: 'GET',
      capability: 'observability:read',
      legacy: [{ path: '/admin/observability/facets' }],
      v1: { path: '/admin/v1/traces/facets' },
      xScope: 'tenant',
      query: facetsQuery,
      response: facetsResponse,
      handler: async ({ query }) => traces.facets(query.days),
    }),
    defineOperation({
      id: 'traces.sessions',
      summary: 'Conversations (sessions) with their trace counts, tokens and cost, most recent first',
      method: 'GET',
      capability: 'observability:read',
      legacy: [{ path: '/admin/observability/sessions' }],
      v1: { path: '/admin/v1/traces/sessions' },
      xScope: 'tenant',
      query: sessionsQuery,
      response: sessionsResponse,
      handler: async ({ query }) => ({ sessions: await traces.sessions(query) }),
    }),
    defineOperation({
      id: 'traces.get',
      summary: 'One trace, metadata only for every caller',
      method: 'GET',
      capability: 'observability:read',
      legacy: [{ path: '/admin/observability/traces/:id' }],
      v1: { path: '/admin/v1/traces/{id}' },
      xScope: 'tenant',
      params: traceIdParams,
      response: traceRecord,
      handler: async ({ params }) => {
        const trace = await traces.get(params.id);
        if (!trace) throw gatewayErrors.notFound(`trace ${params.id}`);
        return trace;
      },
    }),
    defineOperation({
      id: 'traces.content',
      summary: 'Prompt and response bodies of one trace: traces:content, never an admin API key',
      method: 'GET',
      capability: 'content:read',
      legacy: [{ path: '/admin/observability/traces/:id/content' }],
      v1: { path: '/admin/v1/traces/{id}/content', scope: 'traces:content' },
      xScope: 'tenant',
      // Reading bodies is recorded like a write.
      audit: true,
      params: traceIdParams,
      response: traceContentResponse,
      handler: async ({ params, principal }) => {
        // An admin API key never reads trace content, whatever it was granted.
        if (principal.kind === 'api-key') throw adminErrors.insufficientScope('traces:content');
        const sealed = await traces.sealedContent(params.id);
        if (sealed === undefined) throw gatewayErrors.notFound(`trace ${params.id}`);
        if (sealed === null) throw gatewayErrors.notFound(`content of trace ${params.id}`);
        if (!keyring)
          throw gatewayError('unavailable', 'GW_CONTENT_KEY is not configured; stored content cannot be read.');
        return { id: params.id, content: JSON.parse(keyring.decryptString(sealed, `trace:${params.id}`)) as unknown };
      },
    }),
  ];
}
