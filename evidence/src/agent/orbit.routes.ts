import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from '@gw/platform';
import {
  agentAcknowledgement,
  agentErrorBody,
  orbitConfigResponse,
  orbitDeviceTokenRequest,
  orbitEnrollRequest,
  orbitEnrollResponse,
  orbitNodeRequest,
  orbitScriptRequest,
  orbitScriptResponse,
  orbitScriptResultRequest,
} from '@gw/contracts';
import { scriptNamed } from '../catalog/remediation-scripts.js';
import type { OutputVault } from '../remediation/output-vault.js';
import type { RemediationStore } from '../remediation/remediation.store.js';
import { prepareAgentScope } from './agent-scope.js';
import { evidenceError } from '../errors.js';
import type { AgentHost, AgentHostStore } from './agent-host.store.js';
import { hostPlatformOf } from './agent-platform.js';
import type { EnrollSecretStore } from './enroll-secret.store.js';

export interface OrbitRouteOptions {
  secrets: EnrollSecretStore;
  hosts: AgentHostStore;
  remediations: RemediationStore;
  /** Null when remediation-output retention is off: output is then discarded unread. */
  vault: OutputVault | null;
}

const tags = ['agent'];
const errors = {
  400: agentErrorBody,
  401: agentErrorBody,
  404: agentErrorBody,
  409: agentErrorBody,
  503: agentErrorBody,
};
/** How long orbit lets a remediation script run before it kills it (seconds). */
const scriptTimeoutSeconds = 300;

/**
 * The orbit agent API: enrollment, configuration with the
 * pending remediation executions, device-token acceptance, and leased remediation delivery.
 */
export async function orbitRoutes(plain: FastifyInstance, options: OrbitRouteOptions): Promise<void> {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  prepareAgentScope(app, 'orbit');
  const { hosts, remediations } = options;
  const hostOf = (nodeKey: string): Promise<AgentHost> => hosts.authenticate(nodeKey, 'orbit');

  app.post(
    '/api/fleet/orbit/enroll',
    {
      schema: {
        tags,
        summary: 'Enroll orbit with the organization’s enroll secret',
        body: orbitEnrollRequest,
        response: { 200: orbitEnrollResponse, ...errors },
      },
    },
    async (request) => {
      const body = request.body;
      const orgId = await options.secrets.resolve(body.enroll_secret);
      if (!orgId) throw evidenceError('enroll_refused');
      // The hardware serial is read and dropped: serial numbers are never retained.
      const enrolled = await hosts.enroll({
        orgId,
        kind: 'orbit',
        hardwareUuid: body.hardware_uuid.trim(),
        osqueryUuid: undefined,
        hostname: body.hostname || body.computer_name,
        platform: hostPlatformOf(body.platform),
      });
      return { orbit_node_key: enrolled.nodeKey };
    },
  );

  app.post(
    '/api/fleet/orbit/config',
    {
      schema: {
        tags,
        summary: 'Orbit’s configuration, with the remediation executions it should fetch now',
        body: orbitNodeRequest,
        response: { 200: orbitConfigResponse, ...errors },
      },
    },
    async (request) => {
      const host = await hostOf(request.body.orbit_node_key);
      const pending = await remediations.pendingFor(host.hostId);
      return {
        script_execution_timeout: scriptTimeoutSeconds,
        notifications: pending.length > 0 ? { pending_script_execution_ids: pending } : {},
      };
    },
  );

  app.post(
    '/api/fleet/orbit/device_token',
    {
      schema: {
        tags,
        summary: 'Accept the device token fleet desktop uses for this host (stored as a hash)',
        body: orbitDeviceTokenRequest,
        response: { 200: agentAcknowledgement, ...errors },
      },
    },
    async (request) => {
      const body = request.body;
      const host = await hostOf(body.orbit_node_key);
      if (!(await hosts.setDeviceToken(host.hostId, body.device_auth_token)))
        throw evidenceError('conflict', 'This device token belongs to another host.');
      return {};
    },
  );

  app.post(
    '/api/fleet/orbit/scripts/request',
    {
      schema: {
        tags,
        summary:
          'Fetch a queued remediation script under a ten-minute lease (at most three attempts, 24-hour lifetime)',
        body: orbitScriptRequest,
        response: { 200: orbitScriptResponse, ...errors },
      },
    },
    async (request) => {
      const body = request.body;
      const host = await hostOf(body.orbit_node_key);
      const leased = await remediations.lease(host.hostId, body.execution_id);
      const script = leased ? scriptNamed(leased.scriptName) : undefined;
      if (!leased || !script) throw evidenceError('not_found', 'The script execution was not found for this host.');
      return {
        execution_id: leased.executionId,
        script_contents: script.contents,
        output: '',
        runtime: 0,
        exit_code: null,
      };
    },
  );

  app.post(
    '/api/fleet/orbit/scripts/result',
    {
      schema: {
        tags,
        summary:
          'Record a remediation’s exit code; output is kept (encrypted, 8 KiB, 30 days) only when retention is on',
        description:
          'A repeated result for a finished execution is accepted and changes nothing (delivery is at-least-once).',
        body: orbitScriptResultRequest,
        response: { 200: agentAcknowledgement, ...errors },
      },
    },
    async (request) => {
      const body = request.body;
      const host = await hostOf(body.orbit_node_key);
      const timedOut = body.exit_code === -1 && body.timeout !== undefined && body.timeout > 0;
      const sealedOutput = options.vault ? options.vault.seal(body.execution_id, body.output) : null;
      const outcome = await remediations.complete(host.hostId, body.execution_id, {
        exitCode: body.exit_code,
        timedOut,
        sealedOutput,
      });
      if (outcome === 'unknown') throw evidenceError('not_found', 'The script execution was not found for this host.');
      // The script may have fixed the check: ask for the policies again at the next check-in, not in an hour.
      if (outcome === 'recorded') await hosts.markPoliciesStale(host.hostId);
      return {};
    },
  );
}
