import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Clock, ZodTypeProvider } from '@gw/platform';
import { packPolicy, packVersion, renderQuery } from '../catalog/policy-pack.js';
import type { OrgCatalog } from '../delivered/org-catalog.js';
import { evidenceError, evidenceErrorResponses } from '../errors.js';
import type { HostStore } from '../hosts/host.store.js';
import { bearerOf } from '../http/bearer.js';
import type { ConnectorCaller, ConnectorStore } from '../orgs/connector.store.js';
import type { OrgStore } from '../orgs/org.store.js';
import {
  catalogResponse,
  evidenceReportBody,
  reportAcceptedResponse,
  reportLimits,
  type EvidenceReport,
} from './report.schema.js';

export interface ReportRouteOptions {
  connectors: ConnectorStore;
  orgs: OrgStore;
  hosts: HostStore;
  clock: Clock;
  catalog: OrgCatalog;
}

const security = [{ connectorBearer: [] }];
const tags = ['evidence'];

/**
 * The customer-managed evidence lane: a connector bearer (`aer_`) selects the organization and
 * the evidence source; nothing in the request can override either.
 */
export async function reportRoutes(plain: FastifyInstance, options: ReportRouteOptions): Promise<void> {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  const callerOf = async (request: FastifyRequest): Promise<ConnectorCaller> => {
    const token = bearerOf(request);
    const caller = token ? await options.connectors.resolve(token) : null;
    if (!caller) throw evidenceError('unauthorized');
    return caller;
  };
  const enabledPolicies = async (orgId: string) => {
    const [disabled, { checks }] = await Promise.all([
      options.orgs.disabledPolicies(orgId),
      options.catalog.view(orgId),
    ]);
    return checks.filter((policy) => !disabled.has(policy.name));
  };

  app.get(
    '/api/v1/evidence/policies',
    {
      schema: {
        tags,
        security,
        summary: 'The policy catalog of the connector’s organization: every enabled check',
        response: { 200: catalogResponse, ...evidenceErrorResponses(['unauthorized']) },
      },
    },
    async (request) => {
      const caller = await callerOf(request);
      const policies = await enabledPolicies(caller.orgId);
      return { packVersion, policies: policies.map((policy) => ({ ...policy, query: renderQuery(policy.query) })) };
    },
  );

  app.post(
    '/api/v1/evidence/report',
    {
      bodyLimit: reportLimits.maxBodyBytes,
      schema: {
        tags,
        security,
        summary: 'Report a device’s current pass/fail snapshot',
        description:
          '202 with the accepted result count. An unknown, disabled or repeated policy name refuses the whole report (400 `invalid_report`); enabled policies the report leaves out become unknown. Bodies over 64 KiB answer 413.',
        body: evidenceReportBody,
        response: {
          202: reportAcceptedResponse,
          ...evidenceErrorResponses(['invalid_request', 'invalid_report', 'unauthorized', 'body_too_large']),
        },
      },
    },
    async (request, reply) => {
      const caller = await callerOf(request);
      const report = request.body;
      const enabledChecks = await enabledPolicies(caller.orgId);
      const enabled = new Set(enabledChecks.map((policy) => policy.name));
      assertKnownResults(report, enabled);
      // A check of another platform does not apply to this device: it is neither passing nor unknown there.
      const platform = report.device.platform ?? 'unknown';
      const reported = new Set(report.results.map((result) => result.policyName));
      const applicable = enabledChecks
        .filter((policy) => platform === 'unknown' || policy.platform === platform || reported.has(policy.name))
        .map((policy) => policy.name);
      const receivedAt = await options.hosts.applySnapshot({
        orgId: caller.orgId,
        source: caller.source,
        report,
        enabledPolicies: applicable,
      });
      return reply
        .code(202)
        .send({ accepted: report.results.length, source: caller.source, receivedAt: receivedAt.toISOString() });
    },
  );
}

/** One bad name refuses the whole report, so a snapshot is never half applied. */
function assertKnownResults(report: EvidenceReport, enabled: ReadonlySet<string>): void {
  const seen = new Set<string>();
  for (const [index, result] of report.results.entries()) {
    const name = result.policyName;
    if (seen.has(name)) throw evidenceError('invalid_report', `results[${index}].policyName: "${name}" is repeated`);
    seen.add(name);
    if (!enabled.has(name))
      throw evidenceError(
        'invalid_report',
        `results[${index}].policyName: "${name}" is ${packPolicy(name) ? 'disabled for this organization' : 'not in the catalog'}`,
      );
  }
}
