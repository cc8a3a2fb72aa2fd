import { crdApiVersion, gatewaySpec } from '@gw/contracts';
import type { KubeObject } from '../kube/kube-api.js';
import { ManagementError, operatorScopes } from '../management/management-client.js';
import { checkGateway, planStack } from '../gateway/build-stack.js';
import {
  buildGeneratedSecrets,
  generatedSecretName,
  generatedSecrets,
  type SecretMaterial,
} from '../gateway/generated-secrets.js';
import {
  componentNames,
  desiredReplicas,
  objectName,
  ownedMetadata,
  serviceUrl,
  type GatewayResource,
} from '../gateway/stack-names.js';
import type { Reconciler, ReconcileResult } from '../runtime/controller.js';
import { fieldManager, readSecretValue, type ReconcilerDeps } from './context.js';
import { operatorKeySecretKey, operatorKeySecretName, type ManagementClientFactory } from './gateway-clients.js';
import { gatewaySecretRefs } from './secret-references.js';

const rolloutPollMs = 15_000;

/**
 * Gateway → the stack: generated Secrets created once, Deployments, Services, PodDisruptionBudgets
 * and HorizontalPodAutoscalers server-side applied, then, once the gateway serves, the operator's own scoped
 * `aak_` key minted with the admin token and kept in a Secret.
 */
export class GatewayReconciler implements Reconciler {
  readonly apiVersion = crdApiVersion;
  readonly kind = 'Gateway';

  constructor(
    private readonly deps: ReconcilerDeps,
    private readonly clientFactory: ManagementClientFactory,
    private readonly material?: SecretMaterial,
  ) {}

  async reconcile(object: KubeObject): Promise<ReconcileResult> {
    if (object.metadata.deletionTimestamp) return {}; // owner references let garbage collection remove the stack
    const gateway: GatewayResource = { ...object, spec: gatewaySpec.parse(object.spec) };
    const { api, status, events } = this.deps;
    const refusal = checkGateway(gateway);
    if (refusal) {
      if (await status.write(gateway, { outcome: refusal }))
        await events.record(gateway, 'Warning', refusal.reason, refusal.message);
      return {};
    }
    for (const secret of buildGeneratedSecrets(gateway, this.material)) await api.create(secret);
    const versions = await this.referencedSecretVersions(gateway);
    if (typeof versions === 'string') {
      await status.write(gateway, { outcome: { kind: 'stalled', reason: 'SecretNotFound', message: versions } });
      return {};
    }
    const plan = planStack(gateway, versions);
    for (const desired of plan.apply) await api.apply(desired, fieldManager);
    for (const ref of plan.remove) await api.delete(ref);
    const waiting = await this.componentsNotReady(gateway);
    if (waiting.length > 0) {
      await status.write(gateway, {
        outcome: {
          kind: 'progressing',
          reason: 'RollingOut',
          message: `Waiting for ${waiting.join(', ')} to become ready`,
        },
      });
      return { requeueAfterMs: rolloutPollMs };
    }
    return this.ensureOperatorKey(gateway);
  }

  private async referencedSecretVersions(gateway: GatewayResource): Promise<Record<string, string> | string> {
    const versions: Record<string, string> = {};
    for (const ref of gatewaySecretRefs(gateway.spec)) {
      const secret = await this.deps.api.get({
        apiVersion: 'v1',
        kind: 'Secret',
        name: ref.name,
        ...(gateway.metadata.namespace === undefined ? {} : { namespace: gateway.metadata.namespace }),
      });
      if (!(secret?.data as Record<string, string> | undefined)?.[ref.key])
        return `Secret "${ref.name}" has no key "${ref.key}"`;
      versions[ref.name] = secret?.metadata.resourceVersion ?? '';
    }
    return versions;
  }

  private async componentsNotReady(gateway: GatewayResource): Promise<string[]> {
    const waiting: string[] = [];
    for (const component of componentNames) {
      if (!gateway.spec.components[component].enabled) continue;
      const deployment = await this.deps.api.get({
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        name: objectName(gateway, component),
        ...(gateway.metadata.namespace === undefined ? {} : { namespace: gateway.metadata.namespace }),
      });
      const ready = (deployment?.status as { readyReplicas?: number } | undefined)?.readyReplicas ?? 0;
      if (ready < desiredReplicas(gateway.spec, component)) waiting.push(component);
    }
    return waiting;
  }

  private async ensureOperatorKey(gateway: GatewayResource): Promise<ReconcileResult> {
    const { api, status, events } = this.deps;
    const secretName = operatorKeySecretName(gateway);
    const fields = { adminKeySecretName: secretName, serviceUrl: serviceUrl(gateway, 'gateway') };
    const existing = await readSecretValue(api, gateway.metadata.namespace, {
      name: secretName,
      key: operatorKeySecretKey,
    });
    if (existing === null) {
      const adminToken = await readSecretValue(api, gateway.metadata.namespace, {
        name: generatedSecretName(gateway, 'adminToken'),
        key: generatedSecrets.adminToken.key,
      });
      try {
        // The admin token is used for this one call only; everything else goes through the scoped key (least privilege).
        const minted = await this.clientFactory(fields.serviceUrl, adminToken ?? '').createAdminKey({
          label: `gw-operator (${gateway.metadata.namespace}/${gateway.metadata.name})`,
          scopes: [...operatorScopes],
          neverExpires: true,
        });
        await api.create({
          apiVersion: 'v1',
          kind: 'Secret',
          metadata: { ...ownedMetadata(gateway, secretName), annotations: { 'gw.dev/admin-key-id': minted.id } },
          type: 'Opaque',
          data: { [operatorKeySecretKey]: Buffer.from(minted.key).toString('base64') },
        });
        await events.record(
          gateway,
          'Normal',
          'OperatorKeyMinted',
          `Minted the operator's scoped admin key into Secret "${secretName}"`,
        );
      } catch (error) {
        const retryable = !(error instanceof ManagementError) || error.retryable;
        const message = `Minting the operator's admin key failed: ${error instanceof Error ? error.message : String(error)}`;
        await status.write(gateway, {
          outcome: retryable
            ? { kind: 'retrying', reason: 'GatewayUnavailable', message }
            : { kind: 'stalled', reason: 'OperatorKeyRefused', message },
        });
        await events.record(gateway, 'Warning', 'OperatorKeyFailed', message);
        if (retryable) throw error;
        return {};
      }
    }
    await status.write(gateway, {
      outcome: { kind: 'ready', reason: 'Available', message: `Serving at ${gateway.spec.publicUrl}` },
      fields,
    });
    return {};
  }
}
