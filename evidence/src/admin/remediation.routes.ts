import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { DecryptError, type ZodTypeProvider } from '@gw/platform';
import { builtInAgentSource } from '../agent/agent-host.store.js';
import { packPolicy, policyPack } from '../catalog/policy-pack.js';
import { remediationScripts, scriptOf } from '../catalog/remediation-scripts.js';
import { evidenceError, evidenceErrorResponses, evidenceErrors } from '../errors.js';
import type { HostStore, HostWithResults } from '../hosts/host.store.js';
import type { OrgCatalog } from '../delivered/org-catalog.js';
import type { OrgStore } from '../orgs/org.store.js';
import type { OutputVault } from '../remediation/output-vault.js';
import { remediation } from '../remediation/remediation-row.js';
import type { RemediationStore } from '../remediation/remediation.store.js';

export interface RemediationRouteOptions {
  orgs: OrgStore;
  hosts: HostStore;
  remediations: RemediationStore;
  vault: OutputVault | null;
  catalog: OrgCatalog;
}

const security = [{ adminBearer: [] }];
const tags = ['admin'];
const errorKeys = ['invalid_request', 'unauthorized', 'not_found'] as const;
const errors = evidenceErrorResponses(errorKeys);
const hostParams = z.object({ orgId: z.string().min(1).max(100), hostId: z.string().min(1).max(100) });
const orgParams = z.object({ orgId: z.string().min(1).max(100) });
const executionParams = orgParams.extend({ executionId: z.string().min(1).max(64) });
const policyParams = orgParams.extend({ name: z.string().min(1).max(128) });
const outputStates = ['retained', 'not-retained', 'expired', 'unreadable'] as const;

const queuedResponse = z.object({
  remediations: z.array(remediation).describe('The executions queued, or already open, oldest check first'),
});

interface RemediableCheck {
  policyName: string;
  scriptName: string;
}

/** A named check that may be remediated on this platform, or the 404/409 that says why not. */
function remediableCheck(
  policyName: string,
  platform: string,
  disabled: ReadonlySet<string>,
  suspended: ReadonlySet<string>,
): RemediableCheck {
  const policy = packPolicy(policyName);
  if (!policy) throw evidenceErrors.notFound(`Policy ${policyName}`);
  if (suspended.has(policyName))
    throw evidenceError(
      'remediation_suspended',
      `A vendor-delivered check replaces ${policyName}: its remediation is suspended while it does.`,
    );
  const script = scriptOf(policy);
  if (!script)
    throw evidenceError('no_remediation', `Policy ${policyName} has no remediation script: it is monitor-only.`);
  if (disabled.has(policyName))
    throw evidenceError('policy_disabled', `Policy ${policyName} is disabled for this organization.`);
  if (policy.platform !== platform)
    throw evidenceError(
      'platform_mismatch',
      `Policy ${policyName} is a ${policy.platform} check; this host runs ${platform}.`,
    );
  return { policyName, scriptName: script.name };
}

/** Every check failing on the host that is enabled, not replaced by a delivered check, of its platform and has a script. */
function failingRemediable(
  host: HostWithResults,
  disabled: ReadonlySet<string>,
  suspended: ReadonlySet<string>,
): RemediableCheck[] {
  return host.results.flatMap((result) => {
    const runnable =
      result.response === 'fail' && !disabled.has(result.policyName) && !suspended.has(result.policyName);
    const policy = runnable ? packPolicy(result.policyName) : undefined;
    const script = policy && policy.platform === host.platform ? scriptOf(policy) : undefined;
    return script ? [{ policyName: result.policyName, scriptName: script.name }] : [];
  });
}

/**
 * Allowlisted remediation on the admin plane: the image's scripts listed for review, queueing a
 * check's one script on a built-in agent host, and the remediation audit. Output is returned only when asked for;
 * the gateway asks only for a principal holding the content-read capability.
 */
export async function remediationRoutes(plain: FastifyInstance, options: RemediationRouteOptions): Promise<void> {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  const { orgs, hosts, remediations, vault } = options;

  app.get(
    '/admin/scripts',
    {
      schema: {
        tags,
        security,
        summary:
          'Every remediation script compiled into the image, with its whole contents and the checks that dispatch it',
        response: {
          200: z.object({
            scripts: z.array(
              z.object({
                name: z.string(),
                platform: z.string(),
                interpreter: z.string(),
                description: z.string(),
                contents: z.string(),
                dispatchedBy: z.array(z.string()),
              }),
            ),
          }),
          ...evidenceErrorResponses(['unauthorized']),
        },
      },
    },
    async () => ({
      scripts: remediationScripts.map((script) => ({
        ...script,
        dispatchedBy: policyPack.filter((policy) => policy.script === script.name).map((policy) => policy.name),
      })),
    }),
  );

  app.post(
    '/admin/orgs/:orgId/hosts/:hostId/remediate',
    {
      schema: {
        tags,
        security,
        summary:
          'Queue allowlisted scripts on a built-in agent host: one check’s, or (without a body) every failing check’s that has one',
        description:
          '202 when an execution was queued; 200 when each was already open for this host and check (one at a time). 409 `monitor_only` for a customer-managed host; for a named check `no_remediation` (it has no script), `policy_disabled` or `platform_mismatch`; without one, `nothing_to_remediate`.',
        params: hostParams,
        // Fastify hands an absent body over as null.
        body: z.strictObject({ policyName: z.string().min(1).max(128) }).nullish(),
        response: {
          200: queuedResponse,
          202: queuedResponse,
          ...evidenceErrorResponses([
            ...errorKeys,
            'monitor_only',
            'no_remediation',
            'policy_disabled',
            'platform_mismatch',
            'nothing_to_remediate',
            'remediation_suspended',
          ]),
        },
      },
    },
    async (request, reply) => {
      const { orgId, hostId } = request.params;
      const host = await hosts.get(orgId, hostId);
      if (!host) throw evidenceErrors.notFound('The host');
      if (host.source !== builtInAgentSource) throw evidenceError('monitor_only');
      const disabled = await orgs.disabledPolicies(orgId);
      const { suspended } = await options.catalog.view(orgId);
      const named = request.body?.policyName;
      const targets =
        named === undefined
          ? failingRemediable(host, disabled, suspended)
          : [remediableCheck(named, host.platform, disabled, suspended)];
      if (targets.length === 0)
        throw evidenceError('nothing_to_remediate', 'No failing check on this host has a remediation script.');
      const queued = [];
      for (const target of targets)
        queued.push(
          await remediations.queue({
            orgId,
            hostId,
            policyName: target.policyName,
            scriptName: target.scriptName,
            trigger: 'admin',
          }),
        );
      return reply
        .code(queued.some((entry) => entry.created) ? 202 : 200)
        .send({ remediations: queued.map((entry) => entry.remediation) });
    },
  );

  app.post(
    '/admin/orgs/:orgId/policies/:name/automation',
    {
      schema: {
        tags,
        security,
        summary:
          'Turn automatic remediation of one check on or off: a failing result on a built-in agent host queues its script (trigger `policy`, at most once an hour per host)',
        description: '409 `no_remediation` for a check without a script.',
        params: policyParams,
        body: z.strictObject({ autoRemediate: z.boolean() }),
        response: {
          200: z.object({ name: z.string(), autoRemediate: z.boolean() }),
          ...evidenceErrorResponses([...errorKeys, 'no_remediation']),
        },
      },
    },
    async (request) => {
      const { orgId, name } = request.params;
      const { autoRemediate } = request.body;
      if (!(await orgs.get(orgId))) throw evidenceErrors.notFound(`Organization ${orgId}`);
      const policy = packPolicy(name);
      if (!policy) throw evidenceErrors.notFound(`Policy ${name}`);
      if (autoRemediate && !scriptOf(policy))
        throw evidenceError('no_remediation', `Policy ${name} has no remediation script: it is monitor-only.`);
      await orgs.setAutoRemediate(orgId, name, autoRemediate);
      return { name, autoRemediate };
    },
  );

  app.get(
    '/admin/orgs/:orgId/remediations',
    {
      schema: {
        tags,
        security,
        summary: 'The remediation audit, newest first',
        params: orgParams,
        querystring: z.object({
          hostId: z.string().min(1).max(100).optional(),
          limit: z.coerce.number().int().min(1).max(500).default(100),
        }),
        response: { 200: z.object({ remediations: z.array(remediation) }), ...errors },
      },
    },
    async (request) => {
      const { orgId } = request.params;
      if (!(await orgs.get(orgId))) throw evidenceErrors.notFound(`Organization ${orgId}`);
      const query = request.query;
      return { remediations: await remediations.list(orgId, query) };
    },
  );

  app.get(
    '/admin/orgs/:orgId/remediations/:executionId',
    {
      schema: {
        tags,
        security,
        summary: 'One remediation; with `includeOutput=true` also its retained output',
        description:
          '`outputState`: `retained` (output follows), `not-retained` (retention was off), `expired` (past 30 days), `unreadable` (sealed under a key this service no longer holds).',
        params: executionParams,
        querystring: z.object({ includeOutput: z.enum(['true', 'false']).default('false') }),
        response: {
          200: remediation.extend({
            output: z.string().nullable().optional(),
            outputState: z.enum(outputStates).optional(),
          }),
          ...errors,
        },
      },
    },
    async (request) => {
      const { orgId, executionId } = request.params;
      const found = await remediations.get(orgId, executionId);
      if (!found) throw evidenceErrors.notFound('The remediation');
      if (request.query.includeOutput !== 'true') return found.remediation;
      return { ...found.remediation, ...openOutput(executionId, found, vault) };
    },
  );
}

function openOutput(
  executionId: string,
  found: { sealedOutput: string | null; outputExpired: boolean },
  vault: OutputVault | null,
): { output: string | null; outputState: (typeof outputStates)[number] } {
  if (found.outputExpired) return { output: null, outputState: 'expired' };
  if (found.sealedOutput === null) return { output: null, outputState: 'not-retained' };
  if (!vault) return { output: null, outputState: 'unreadable' };
  try {
    return { output: vault.open(executionId, found.sealedOutput), outputState: 'retained' };
  } catch (error) {
    if (error instanceof DecryptError) return { output: null, outputState: 'unreadable' };
    throw error;
  }
}
