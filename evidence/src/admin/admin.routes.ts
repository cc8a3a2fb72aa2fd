import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { timingSafeEqualString, type Clock, type ZodTypeProvider } from '@gw/platform';
import { packVersion, policyPack, renderQuery } from '../catalog/policy-pack.js';
import { evidenceError, evidenceErrorResponses, evidenceErrors } from '../errors.js';
import type { EnrollSecretStore } from '../agent/enroll-secret.store.js';
import type { HostStore } from '../hosts/host.store.js';
import { bearerOf } from '../http/bearer.js';
import { evidenceSources, type ConnectorStore } from '../orgs/connector.store.js';
import type { OrgStore } from '../orgs/org.store.js';
import type { OutputVault } from '../remediation/output-vault.js';
import type { RemediationStore } from '../remediation/remediation.store.js';
import { fleetRollup, fleetRollupResponse } from '../rollup/fleet-rollup.js';
import type { DeliveredCheckRouteOptions } from './delivered-checks.routes.js';
import { deliveredCheckRoutes } from './delivered-checks.routes.js';
import { enrollSecretRoutes } from './enroll-secret.routes.js';
import { remediationRoutes } from './remediation.routes.js';

export interface AdminRouteOptions {
  adminToken: string;
  orgs: OrgStore;
  connectors: ConnectorStore;
  hosts: HostStore;
  secrets: EnrollSecretStore;
  remediations: RemediationStore;
  vault: OutputVault | null;
  clock: Clock;
  delivered: Pick<DeliveredCheckRouteOptions, 'store' | 'catalog' | 'trust'>;
}

const security = [{ adminBearer: [] }];
const tags = ['admin'];
const errors = evidenceErrorResponses(['invalid_request', 'unauthorized', 'not_found']);

const org = z.object({
  id: z.string(),
  name: z.string(),
  gatewayUrl: z.string().nullable(),
  gatewayHostname: z.string().nullable(),
  billingTenantId: z.string().nullable(),
  createdAt: z.string(),
});
const orgBody = z.strictObject({
  name: z.string().trim().min(1).max(200),
  gatewayUrl: z
    .url({ protocol: /^https?$/ })
    .max(2_048)
    .optional()
    .describe('The gateway this organization’s developers use'),
  billingTenantId: z.string().min(1).max(200).optional(),
});
const orgParams = z.object({ orgId: z.string().min(1).max(100) });
const chosenOrgParams = z.object({
  orgId: z.string().regex(/^[A-Za-z0-9_.-]{1,100}$/, 'letters, digits, _ . - (1 to 100)'),
});
const sourceParams = orgParams.extend({ source: z.enum(evidenceSources) });
const hostParams = orgParams.extend({ hostId: z.string().min(1).max(100) });
const policyParams = orgParams.extend({ name: z.string().min(1).max(128) });
const host = z.object({
  id: z.string(),
  hostname: z.string().nullable(),
  platform: z.string(),
  source: z.string(),
  lastEvidenceAt: z.string(),
  createdAt: z.string(),
});

/**
 * The admin plane: organizations, evidence-connector bearers,
 * policy switches, host views, the fleet rollup, the agent enroll secret and remediation. The gateway re-serves it as
 * `/admin/endpoint/*`.
 */
export async function adminRoutes(plain: FastifyInstance, options: AdminRouteOptions): Promise<void> {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  const { orgs, connectors, hosts } = options;
  app.addHook('onRequest', async (request) => {
    const token = bearerOf(request);
    if (!token || !timingSafeEqualString(token, options.adminToken)) throw evidenceError('unauthorized');
  });
  const existingOrg = async (orgId: string) => {
    const found = await orgs.get(orgId);
    if (!found) throw evidenceErrors.notFound(`Organization ${orgId}`);
    return found;
  };

  app.post(
    '/admin/orgs',
    {
      schema: {
        tags,
        security,
        summary: 'Provision an organization',
        body: orgBody,
        response: { 201: org, ...errors },
      },
    },
    async (request, reply) => reply.code(201).send(await orgs.create(request.body)),
  );
  app.put(
    '/admin/orgs/:orgId',
    {
      schema: {
        tags,
        security,
        summary: 'Create the organization under this id, or update its name and gateway (how a gateway binds itself)',
        params: chosenOrgParams,
        body: orgBody,
        response: { 200: org, 201: org, ...errors },
      },
    },
    async (request, reply) => {
      const { org: ensured, created } = await orgs.ensure(request.params.orgId, request.body);
      return reply.code(created ? 201 : 200).send(ensured);
    },
  );
  app.get(
    '/admin/orgs',
    {
      schema: {
        tags,
        security,
        summary: 'Every organization',
        response: { 200: z.object({ orgs: z.array(org) }), ...errors },
      },
    },
    async () => ({ orgs: await orgs.list() }),
  );
  app.get(
    '/admin/orgs/:orgId',
    { schema: { tags, security, summary: 'One organization', params: orgParams, response: { 200: org, ...errors } } },
    async (request) => existingOrg(request.params.orgId),
  );
  app.delete(
    '/admin/orgs/:orgId',
    {
      schema: {
        tags,
        security,
        summary: 'Delete an organization and everything it holds (credentials, hosts, results)',
        params: orgParams,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      if (!(await orgs.delete(request.params.orgId))) throw evidenceErrors.notFound('The organization');
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/admin/orgs/:orgId/evidence-connectors',
    {
      schema: {
        tags,
        security,
        summary: 'Evidence connectors and the sources that can connect',
        params: orgParams,
        response: {
          200: z.object({
            connectors: z.array(z.object({ source: z.string(), createdAt: z.string() })),
            sources: z.array(z.string()),
          }),
          ...errors,
        },
      },
    },
    async (request) => {
      const { orgId } = request.params;
      await existingOrg(orgId);
      return { connectors: await connectors.list(orgId), sources: [...evidenceSources] };
    },
  );
  app.post(
    '/admin/orgs/:orgId/evidence-connectors/:source/rotate',
    {
      schema: {
        tags,
        security,
        summary: 'Mint or rotate the source’s `aer_` bearer, shown once; the previous one stops working at once',
        params: sourceParams,
        response: { 200: z.object({ source: z.string(), token: z.string(), createdAt: z.string() }), ...errors },
      },
    },
    async (request, reply) => {
      const { orgId, source } = request.params;
      await existingOrg(orgId);
      const minted = await connectors.rotate(orgId, source);
      return reply.header('cache-control', 'no-store').send({ source, ...minted });
    },
  );
  app.delete(
    '/admin/orgs/:orgId/evidence-connectors/:source',
    {
      schema: {
        tags,
        security,
        summary: 'Revoke the source’s bearer immediately',
        params: sourceParams,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      const { orgId, source } = request.params;
      if (!(await connectors.revoke(orgId, source))) throw evidenceErrors.notFound(`A ${source} connector`);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/admin/orgs/:orgId/policies',
    {
      schema: {
        tags,
        security,
        summary: 'The policy pack with this organization’s switches',
        params: orgParams,
        response: {
          200: z.object({
            packVersion: z.string(),
            policies: z.array(
              z.object({
                name: z.string(),
                platform: z.string(),
                critical: z.boolean(),
                description: z.string(),
                resolution: z.string(),
                query: z.string(),
                script: z.string().optional(),
                enabled: z.boolean(),
                autoRemediate: z.boolean(),
                remediationSuspended: z
                  .boolean()
                  .describe('A vendor-delivered check replaces this one: its remediation is suspended meanwhile'),
              }),
            ),
          }),
          ...errors,
        },
      },
    },
    async (request) => {
      const { orgId } = request.params;
      await existingOrg(orgId);
      const [disabled, automated, { suspended }] = await Promise.all([
        orgs.disabledPolicies(orgId),
        orgs.autoRemediated(orgId),
        options.delivered.catalog.view(orgId),
      ]);
      return {
        packVersion,
        policies: policyPack.map((policy) => ({
          ...policy,
          query: renderQuery(policy.query),
          enabled: !disabled.has(policy.name),
          autoRemediate: automated.has(policy.name),
          remediationSuspended: suspended.has(policy.name),
        })),
      };
    },
  );
  app.post(
    '/admin/orgs/:orgId/policies/:name',
    {
      schema: {
        tags,
        security,
        summary: 'Enable or disable one check for this organization',
        params: policyParams,
        body: z.strictObject({ enabled: z.boolean() }),
        response: { 200: z.object({ name: z.string(), enabled: z.boolean() }), ...errors },
      },
    },
    async (request) => {
      const { orgId, name } = request.params;
      const { enabled } = request.body;
      await existingOrg(orgId);
      if (!policyPack.some((policy) => policy.name === name)) throw evidenceErrors.notFound(`Policy ${name}`);
      await orgs.setPolicyEnabled(orgId, name, enabled);
      // A disabled check runs nothing: scripts already queued for it are cancelled, not delivered.
      if (!enabled) await options.remediations.cancelOpen(orgId, name);
      return { name, enabled };
    },
  );

  app.get(
    '/admin/orgs/:orgId/policies/:name/hosts',
    {
      schema: {
        tags,
        security,
        summary: 'Hosts with a result for one check: failing first, then unknown, then passing',
        params: policyParams,
        response: {
          200: z.object({
            policy: z.string(),
            hosts: z.array(host.extend({ response: z.enum(['pass', 'fail', 'unknown']) })),
          }),
          ...errors,
        },
      },
    },
    async (request) => {
      const { orgId, name } = request.params;
      await existingOrg(orgId);
      if (!policyPack.some((policy) => policy.name === name)) throw evidenceErrors.notFound(`Policy ${name}`);
      return { policy: name, hosts: await hosts.byPolicy(orgId, name) };
    },
  );
  app.get(
    '/admin/orgs/:orgId/hosts',
    {
      schema: {
        tags,
        security,
        summary: 'Hosts, most recently reporting first',
        params: orgParams,
        response: { 200: z.object({ hosts: z.array(host) }), ...errors },
      },
    },
    async (request) => {
      const { orgId } = request.params;
      await existingOrg(orgId);
      return { hosts: await hosts.list(orgId) };
    },
  );
  app.get(
    '/admin/orgs/:orgId/hosts/:hostId',
    {
      schema: {
        tags,
        security,
        summary: 'One host and its current results',
        params: hostParams,
        response: {
          200: host.extend({
            results: z.array(
              z.object({
                policyName: z.string(),
                response: z.enum(['pass', 'fail', 'unknown']),
                updatedAt: z.string(),
              }),
            ),
          }),
          ...errors,
        },
      },
    },
    async (request) => {
      const { orgId, hostId } = request.params;
      const found = await hosts.get(orgId, hostId);
      if (!found) throw evidenceErrors.notFound('The host');
      return found;
    },
  );
  app.delete(
    '/admin/orgs/:orgId/hosts/:hostId',
    {
      schema: {
        tags,
        security,
        summary: 'Delete a host and its results',
        params: hostParams,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      const { orgId, hostId } = request.params;
      if (!(await hosts.delete(orgId, hostId))) throw evidenceErrors.notFound('The host');
      return reply.code(204).send(null);
    },
  );
  app.get(
    '/admin/orgs/:orgId/rollup',
    {
      schema: {
        tags,
        security,
        summary: 'The fleet rollup: host, compliance and failing-policy counts',
        params: orgParams,
        response: { 200: fleetRollupResponse, ...errors },
      },
    },
    async (request) => {
      const { orgId } = request.params;
      await existingOrg(orgId);
      return fleetRollup(hosts, orgId, options.clock.now());
    },
  );
  // Registered inside this scope, so the admin bearer check above guards them too.
  await app.register(enrollSecretRoutes, { orgs, secrets: options.secrets });
  await app.register(remediationRoutes, {
    orgs,
    hosts,
    remediations: options.remediations,
    vault: options.vault,
    catalog: options.delivered.catalog,
  });
  await app.register(deliveredCheckRoutes, { orgs, remediations: options.remediations, ...options.delivered });
}
