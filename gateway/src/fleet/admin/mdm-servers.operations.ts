import { z } from 'zod';
import type { Clock, Db } from '@gw/platform';
import { gatewayError } from '../../errors.js';
import { readPolicyDocument, replacePolicyDocument } from '../../policies/policy-documents.js';
import { defineOperation, type AdminOperation } from '../../admin/operation.js';

const documentName = 'mdm-servers';
const maxServers = 20;
const maxUrlLength = 512;

/** Https only, no credentials or query, at most 512 characters. */
function urlProblem(value: unknown): string | null {
  if (typeof value !== 'string') return 'must be a string';
  if (value.length > maxUrlLength) return `must be at most ${maxUrlLength} characters`;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be a URI';
  }
  if (url.protocol !== 'https:') return 'must be https';
  if (url.username !== '' || url.password !== '') return 'must not carry credentials';
  if (url.search !== '' || value.includes('?')) return 'must not carry a query';
  return null;
}

// The body is checked by hand so an invalid entry is named by its index and never echoed.
const putBody = z.strictObject({ serverUrls: z.array(z.unknown()).max(maxServers, `at most ${maxServers} servers`) });
const view = z.object({ serverUrls: z.array(z.string()), updatedAt: z.string().nullable() });

/** `GET, PUT /admin/endpoint-fleet/mdm-servers` and `/admin/v1/fleet/mdm-servers`: deployment owner. */
export function mdmServerOperations(deps: { db: Db; clock: Clock }): AdminOperation[] {
  const read = async () => {
    const row = await readPolicyDocument(deps.db, documentName);
    const urls = (row?.document as { serverUrls?: unknown } | undefined)?.serverUrls;
    return {
      serverUrls: Array.isArray(urls) ? urls.filter((url): url is string => typeof url === 'string') : [],
      updatedAt: row?.updatedAt ?? null,
    };
  };
  return [
    defineOperation({
      id: 'endpoint.mdmServers.get',
      summary: 'The MDM servers enrolled devices may be managed by',
      method: 'GET',
      capability: 'config:read',
      legacy: [{ path: '/admin/endpoint-fleet/mdm-servers' }],
      v1: { path: '/admin/v1/fleet/mdm-servers' },
      xScope: 'deployment',
      response: view,
      handler: async () => read(),
    }),
    defineOperation({
      id: 'endpoint.mdmServers.put',
      summary:
        'Replace the MDM server list (https URIs, no credentials or query, at most 20); an invalid entry is named by index, never echoed',
      method: 'PUT',
      capability: 'provisioning:manage',
      legacy: [{ path: '/admin/endpoint-fleet/mdm-servers' }],
      v1: { path: '/admin/v1/fleet/mdm-servers' },
      xScope: 'deployment',
      body: putBody,
      response: z.object({ serverUrls: z.array(z.string()) }),
      // The audit records only the count.
      auditSubjects: ({ result }) => ({
        target: `count:${(result as { serverUrls?: unknown[] } | undefined)?.serverUrls?.length ?? 0}`,
        subject: null,
      }),
      handler: async ({ body, principal }) => {
        for (const [index, value] of body.serverUrls.entries()) {
          const problem = urlProblem(value);
          if (problem) throw gatewayError('invalid_request', `body.serverUrls[${index}] ${problem}`);
        }
        const serverUrls = body.serverUrls as string[];
        await replacePolicyDocument(deps.db, {
          name: documentName,
          label: 'MDM server list',
          document: { serverUrls },
          expectedRevision: undefined,
          actor: principal.actor,
          at: new Date(deps.clock.now()),
        });
        return { serverUrls };
      },
    }),
  ];
}
