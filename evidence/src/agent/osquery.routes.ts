import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from '@gw/platform';
import {
  osqueryConfigResponse,
  osqueryDistributedReadResponse,
  osqueryDistributedWriteRequest,
  osqueryEnrollRequest,
  osqueryEnrollResponse,
  osqueryLogRequest,
  osqueryErrorBody,
  osqueryNodeInvalid,
  agentAcknowledgement,
  osqueryNodeRequest,
  policyQueryName,
} from '@gw/contracts';
import { renderQuery } from '../catalog/policy-pack.js';
import type { AutoRemediation } from '../remediation/auto-remediation.js';
import { prepareAgentScope } from './agent-scope.js';
import { evidenceError } from '../errors.js';
import type { AgentHost, AgentHostStore } from './agent-host.store.js';
import { hostPlatformOf } from './agent-platform.js';
import type { AgentPolicies } from './agent-policies.js';
import type { EnrollSecretStore } from './enroll-secret.store.js';
import { answeredPolicies } from './policy-results.js';

export interface OsqueryRouteOptions {
  secrets: EnrollSecretStore;
  hosts: AgentHostStore;
  policies: AgentPolicies;
  /** Queues the script of a failing check set to remediate itself. */
  autoRemediation: AutoRemediation;
}

const tags = ['agent'];
const errors = { 400: osqueryErrorBody, 401: osqueryNodeInvalid, 503: osqueryErrorBody };

// osquery's own cadence: ask for distributed work every minute, refresh the config hourly. Nothing is scheduled and
// result logs are discarded unread: the service keeps pass, fail or unknown per check, nothing else.
const agentConfig = {
  options: {
    distributed_plugin: 'tls',
    disable_distributed: false,
    distributed_interval: 60,
    distributed_tls_max_attempts: 3,
    config_refresh: 3600,
    logger_tls_period: 3600,
  },
  schedule: {},
  decorators: {},
};

/**
 * osquery's TLS remote API: enrollment with the organization's
 * enroll secret, configuration, the policy checks as distributed queries, and logs, whose content is discarded.
 */
export async function osqueryRoutes(plain: FastifyInstance, options: OsqueryRouteOptions): Promise<void> {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  prepareAgentScope(app, 'osquery');
  const { hosts, policies } = options;
  const hostOf = (nodeKey: string): Promise<AgentHost> => hosts.authenticate(nodeKey, 'osquery');

  app.post(
    '/api/v1/osquery/enroll',
    {
      schema: {
        tags,
        summary: 'Enroll osquery with the organization’s enroll secret',
        body: osqueryEnrollRequest,
        response: { 200: osqueryEnrollResponse, ...errors },
      },
    },
    async (request) => {
      const body = request.body;
      const orgId = await options.secrets.resolve(body.enroll_secret);
      if (!orgId) throw evidenceError('enroll_refused');
      const details = body.host_details;
      // fleetd sets osquery's host identifier to the hardware UUID; system_info.uuid is the same value when present.
      const hardwareUuid = details?.system_info?.uuid?.trim() || body.host_identifier.trim();
      if (!hardwareUuid)
        throw evidenceError('invalid_request', 'host_identifier or host_details.system_info.uuid is required');
      const enrolled = await hosts.enroll({
        orgId,
        kind: 'osquery',
        hardwareUuid,
        osqueryUuid: details?.osquery_info?.uuid,
        hostname: details?.system_info?.hostname ?? details?.system_info?.computer_name,
        platform: hostPlatformOf(details?.os_version?.platform, body.platform_type),
      });
      return { node_key: enrolled.nodeKey, node_invalid: false as const };
    },
  );

  app.post(
    '/api/v1/osquery/config',
    {
      schema: {
        tags,
        summary: 'The agent’s configuration',
        body: osqueryNodeRequest,
        response: { 200: osqueryConfigResponse, ...errors },
      },
    },
    async (request) => {
      await hostOf(request.body.node_key);
      return agentConfig;
    },
  );

  app.post(
    '/api/v1/osquery/distributed/read',
    {
      schema: {
        tags,
        summary: 'The policy checks to run now: every enabled check of the host’s platform, once they are due',
        body: osqueryNodeRequest,
        response: { 200: osqueryDistributedReadResponse, ...errors },
      },
    },
    async (request) => {
      const host = await hostOf(request.body.node_key);
      if (!(await policies.due(host))) return { queries: {} };
      const checks = await policies.applicable(host);
      return {
        queries: Object.fromEntries(checks.map((policy) => [policyQueryName(policy.name), renderQuery(policy.query)])),
      };
    },
  );

  app.post(
    '/api/v1/osquery/distributed/write',
    {
      schema: {
        tags,
        summary:
          'Results of the policy checks: a row means pass, no row fail, a failed query unknown; rows are never stored',
        body: osqueryDistributedWriteRequest,
        response: { 200: agentAcknowledgement, ...errors },
      },
    },
    async (request) => {
      const write = request.body;
      const host = await hostOf(write.node_key);
      const asked = new Set((await policies.applicable(host)).map((policy) => policy.name));
      const answered = answeredPolicies(write, asked);
      if (answered.length > 0) {
        await hosts.recordPolicyResults(host.hostId, answered);
        await options.autoRemediation.onResults(host, answered);
      }
      return {};
    },
  );

  app.post(
    '/api/v1/osquery/log',
    {
      schema: {
        tags,
        summary: 'Status and result logs: accepted for the protocol, discarded unread',
        body: osqueryLogRequest,
        response: { 200: agentAcknowledgement, ...errors },
      },
    },
    async (request) => {
      await hostOf(request.body.node_key);
      return {};
    },
  );
}
