import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { deliveredCheckDelivery, type DeliveredCheckPayload, type SignedDeliveredCheck } from '@gw/contracts';
import type { DeliveredCheckTrust, ZodTypeProvider } from '@gw/platform';
import { screenDeliveredCheck } from '../delivered/delivered-check-screen.js';
import { DeliveryConflict, type DeliveredCheckStore } from '../delivered/delivered-check.store.js';
import type { OrgCatalog } from '../delivered/org-catalog.js';
import { evidenceError, evidenceErrorResponses, evidenceErrors, type EvidenceErrorKey } from '../errors.js';
import type { OrgStore } from '../orgs/org.store.js';
import type { RemediationStore } from '../remediation/remediation.store.js';

export interface DeliveredCheckRouteOptions {
  orgs: OrgStore;
  store: DeliveredCheckStore;
  catalog: OrgCatalog;
  trust: DeliveredCheckTrust;
  remediations: RemediationStore;
}

const security = [{ adminBearer: [] }];
const tags = ['delivered checks'];
const errorKeys = ['invalid_request', 'unauthorized', 'not_found'] as const;
const orgParams = z.object({ orgId: z.string().min(1).max(100) });
const checkParams = orgParams.extend({ checkId: z.string().min(1).max(64) });

const deliveredCheck = z.object({
  id: z.string(),
  revision: z.number().int(),
  name: z.string(),
  platform: z.string().nullable(),
  description: z.string().nullable(),
  query: z.string().nullable().describe('The read-only SELECT, for review before it runs'),
  enabled: z.boolean().describe('The administrator’s per-check switch'),
  verified: z.boolean().describe('The stored envelope still verifies against a pinned key (else it is not served)'),
  replaces: z
    .string()
    .nullable()
    .describe('The image check this one replaces; that check’s remediation is suspended while this one is active'),
  deliveredAt: z.string(),
});
const laneState = z.object({
  enabled: z.boolean().describe('The policy-push lane: on by default; off withdraws and refuses delivered checks'),
  checks: z.array(deliveredCheck),
});
const auditEntry = z.object({
  at: z.string(),
  actor: z.string().describe('`gw-policy-push` for deliveries and their refusals; `admin` for switches'),
  action: z.enum(['delivered', 'refused', 'withdrawn', 'disabled', 'enabled', 'lane_off', 'lane_on']),
  checkId: z.string().nullable(),
  revision: z.number().int().nullable(),
  name: z.string().nullable(),
  outcome: z.enum(['success', 'failure']),
  reason: z.string().nullable().describe('The refusal’s error code'),
});
const deliveryRefusals: EvidenceErrorKey[] = [
  'delivered_check_unverified',
  'delivered_check_names_script',
  'delivered_check_not_read_only',
  'delivered_check_invalid',
  'delivered_check_stale',
  'delivered_check_name_taken',
  'delivered_checks_off',
];

/**
 * The policy-push lane: vendor-delivered checks, verified offline against the keys pinned in the image
 * (`docs/adr/0027-delivered-check-signatures.md`), taken whole or refused whole, each delivery audited as
 * `gw-policy-push`; the lane switch and the per-check switch. The gateway re-serves it as `/admin/v1/fleet/policy-push`.
 */
export async function deliveredCheckRoutes(plain: FastifyInstance, options: DeliveredCheckRouteOptions): Promise<void> {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  const { orgs, store, catalog } = options;
  const existingOrg = async (orgId: string) => {
    if (!(await orgs.get(orgId))) throw evidenceErrors.notFound(`Organization ${orgId}`);
  };
  const laneOf = async (orgId: string) => {
    const [enabled, view] = await Promise.all([store.laneEnabled(orgId), catalog.view(orgId)]);
    return {
      enabled,
      checks: view.delivered.map((check) => ({
        id: check.checkId,
        revision: check.revision,
        name: check.name,
        platform: check.payload?.platform ?? null,
        description: check.payload?.description ?? null,
        query: check.payload?.query ?? null,
        enabled: !check.disabled,
        verified: check.payload !== null,
        replaces: check.replaces,
        deliveredAt: check.deliveredAt,
      })),
    };
  };

  app.get(
    '/admin/orgs/:orgId/delivered-checks',
    {
      schema: {
        tags,
        security,
        summary: 'The policy-push lane: its switch and every delivered check held',
        params: orgParams,
        response: { 200: laneState, ...evidenceErrorResponses(errorKeys) },
      },
    },
    async (request) => {
      await existingOrg(request.params.orgId);
      return laneOf(request.params.orgId);
    },
  );

  app.post(
    '/admin/orgs/:orgId/delivered-checks',
    {
      schema: {
        tags,
        security,
        summary:
          'Deliver signed checks: all verified and stored, or none (each delivery and refusal audited as gw-policy-push)',
        description:
          'Each check is an envelope `{keyId, payload, signature}`: an Ed25519 signature over `gw-delivered-check.v1.` + the base64url payload, by a key pinned in the image. A check is read-only, monitor-only, never critical, and never carries or names a script. A check named like an image check replaces it and suspends its remediation while it is active. A redelivered check keeps its per-check switch.',
        params: orgParams,
        body: deliveredCheckDelivery,
        response: { 200: laneState, ...evidenceErrorResponses([...errorKeys, ...deliveryRefusals]) },
      },
    },
    async (request) => {
      const { orgId } = request.params;
      await existingOrg(orgId);
      if (!(await store.laneEnabled(orgId))) {
        await store.refused(orgId, [{ checkId: null, reason: 'delivered_checks_off' }]);
        throw evidenceError('delivered_checks_off');
      }
      const accepted = await screenDelivery(orgId, request.body.checks, options);
      try {
        await store.deliver(orgId, accepted);
      } catch (error) {
        if (!(error instanceof DeliveryConflict)) throw error;
        await store.refused(orgId, [{ checkId: error.checkId, reason: error.code }]);
        throw evidenceError(error.code, error.message);
      }
      // Scripts already queued for a check a delivered one now replaces do not run.
      const { suspended } = await catalog.view(orgId);
      for (const { payload } of accepted)
        if (suspended.has(payload.name)) await options.remediations.cancelOpen(orgId, payload.name);
      return laneOf(orgId);
    },
  );

  app.put(
    '/admin/orgs/:orgId/delivered-checks/lane',
    {
      schema: {
        tags,
        security,
        summary: 'Switch the policy-push lane on or off; off withdraws every delivered check and refuses future ones',
        params: orgParams,
        body: z.strictObject({ enabled: z.boolean() }),
        response: {
          200: z.object({ enabled: z.boolean(), withdrawn: z.number().int().describe('Delivered checks withdrawn') }),
          ...evidenceErrorResponses(errorKeys),
        },
      },
    },
    async (request) => {
      const { orgId } = request.params;
      await existingOrg(orgId);
      const withdrawn = await store.setLane(orgId, request.body.enabled);
      return { enabled: request.body.enabled, withdrawn };
    },
  );

  app.post(
    '/admin/orgs/:orgId/delivered-checks/:checkId',
    {
      schema: {
        tags,
        security,
        summary: 'Enable or disable one delivered check (a disabled one that replaced an image check gives it back)',
        params: checkParams,
        body: z.strictObject({ enabled: z.boolean() }),
        response: { 200: z.object({ id: z.string(), enabled: z.boolean() }), ...evidenceErrorResponses(errorKeys) },
      },
    },
    async (request) => {
      const { orgId, checkId } = request.params;
      await existingOrg(orgId);
      const updated = await store.setEnabled(orgId, checkId, request.body.enabled);
      if (!updated) throw evidenceErrors.notFound(`Delivered check ${checkId}`);
      return { id: checkId, enabled: !updated.disabled };
    },
  );

  app.get(
    '/admin/orgs/:orgId/delivered-checks/audit',
    {
      schema: {
        tags,
        security,
        summary: 'The policy-push audit, newest first: deliveries, refusals, withdrawals and switches (never a query)',
        params: orgParams,
        querystring: z.object({ limit: z.coerce.number().int().min(1).max(500).default(100) }),
        response: { 200: z.object({ events: z.array(auditEntry) }), ...evidenceErrorResponses(errorKeys) },
      },
    },
    async (request) => {
      await existingOrg(request.params.orgId);
      return { events: await store.auditLog(request.params.orgId, request.query.limit) };
    },
  );
}

/** Every check of a delivery screened; the first refusal refuses the whole delivery, audited per refused check. */
async function screenDelivery(
  orgId: string,
  checks: readonly SignedDeliveredCheck[],
  options: DeliveredCheckRouteOptions,
): Promise<Array<{ payload: DeliveredCheckPayload; envelope: SignedDeliveredCheck }>> {
  const accepted: Array<{ payload: DeliveredCheckPayload; envelope: SignedDeliveredCheck }> = [];
  const refusals: Array<{ checkId: string | null; code: EvidenceErrorKey; detail: string }> = [];
  const ids = new Set<string>();
  for (const [index, envelope] of checks.entries()) {
    const screened = screenDeliveredCheck(envelope, options.trust);
    if (!screened.ok) {
      refusals.push({ checkId: screened.checkId, code: screened.code, detail: `checks[${index}]: ${screened.detail}` });
    } else if (ids.has(screened.payload.id)) {
      refusals.push({
        checkId: screened.payload.id,
        code: 'delivered_check_invalid',
        detail: `checks[${index}]: ${screened.payload.id} is delivered twice`,
      });
    } else {
      ids.add(screened.payload.id);
      accepted.push({ payload: screened.payload, envelope });
    }
  }
  const first = refusals[0];
  if (!first) return accepted;
  await options.store.refused(
    orgId,
    refusals.map((refusal) => ({ checkId: refusal.checkId, reason: refusal.code })),
  );
  throw evidenceError(first.code, first.detail);
}
