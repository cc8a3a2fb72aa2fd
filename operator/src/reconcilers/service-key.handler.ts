import { serviceKeySpec, type ServiceKeySpec } from '@gw/contracts';
import type { KubeApi, KubeObject } from '../kube/kube-api.js';
import type { KeyPatch, ManagementClient } from '../management/management-client.js';
import { PolicyRefusal, type ApplyResult, type PolicyHandler } from './policy-reconciler.js';

export const keyIdAnnotation = 'gw.dev/key-id';
export const serviceKeySecretKey = 'apiKey';

function specOf(object: KubeObject): ServiceKeySpec {
  return serviceKeySpec.parse(object.spec);
}

function keyIdOf(object: KubeObject): string | undefined {
  return (object.status as { keyId?: string } | undefined)?.keyId;
}

const budgetOf = (spec: ServiceKeySpec): number | null => {
  const budget = spec.monthlyBudgetUsd === undefined ? 0 : Number(spec.monthlyBudgetUsd);
  return budget === 0 ? null : budget; // Absent or 0 means unlimited
};

function secretFor(
  object: KubeObject,
  spec: ServiceKeySpec,
  key: string,
  keyId: string,
  existing: KubeObject | null,
): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: {
      ...(existing ? { resourceVersion: existing.metadata.resourceVersion } : {}),
      name: spec.secretName,
      namespace: object.metadata.namespace,
      annotations: { [keyIdAnnotation]: keyId },
      labels: { 'app.kubernetes.io/managed-by': 'gw-operator', 'app.kubernetes.io/part-of': 'gw' },
      ownerReferences: [
        {
          apiVersion: object.apiVersion,
          kind: object.kind,
          name: object.metadata.name,
          uid: object.metadata.uid ?? '',
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    },
    type: 'Opaque',
    data: { [serviceKeySecretKey]: Buffer.from(key).toString('base64') },
  };
}

/**
 * ServiceKey → a service key minted with `POST /admin/v1/keys`; the raw `ark_svc_` key is written once into the
 * Secret the resource names (the gateway shows it only once); the budget follows the spec through
 * `PATCH /admin/v1/keys/{id}`; a key revoked behind the operator's back is replaced; deletion revokes it.
 */
export function serviceKeyHandler(api: KubeApi): PolicyHandler {
  return {
    kind: 'ServiceKey',
    claim: (object) => `secret:${specOf(object).secretName}`,
    describeClaim: (object) => `writes its key into Secret "${specOf(object).secretName}"`,
    async apply(object: KubeObject, client: ManagementClient): Promise<ApplyResult> {
      const spec = specOf(object);
      const secretRef = {
        apiVersion: 'v1',
        kind: 'Secret',
        name: spec.secretName,
        ...(object.metadata.namespace === undefined ? {} : { namespace: object.metadata.namespace }),
      };
      const secret = await api.get(secretRef);
      if (secret && !(secret.metadata.ownerReferences ?? []).some((owner) => owner.uid === object.metadata.uid)) {
        throw new PolicyRefusal(
          'SecretExists',
          `Secret "${spec.secretName}" exists and is not managed by this ServiceKey; choose another secretName`,
        );
      }
      // A key id in the Secret survives a lost status (crash between minting and the status write).
      let keyId = keyIdOf(object) ?? secret?.metadata.annotations?.[keyIdAnnotation];
      const current = keyId === undefined ? null : await client.getKey(keyId);
      if (keyId === undefined || current === null || current.status !== 'active' || secret === null) {
        if (keyId !== undefined && current?.status === 'active') await client.revokeKey(keyId); // its raw value is lost with the Secret
        const minted = await client.createServiceKey({
          name: spec.name.trim(),
          team: spec.team.trim(),
          ...(budgetOf(spec) === null ? {} : { monthlyBudgetUsd: budgetOf(spec)! }),
        });
        keyId = minted.id;
        const body = secretFor(object, spec, minted.key, minted.id, secret);
        if (secret) await api.replace(body);
        else await api.create(body);
        return { wrote: true, message: `Service key minted into Secret "${spec.secretName}"`, fields: { keyId } };
      }
      // The gateway trims names; a rename or budget change made through the admin API is drift.
      const patch: KeyPatch = {
        ...(current.name !== spec.name.trim() ? { name: spec.name.trim() } : {}),
        ...(current.team !== spec.team.trim() ? { team: spec.team.trim() } : {}),
        ...(current.monthlyBudgetUsd !== budgetOf(spec) ? { monthlyBudgetUsd: budgetOf(spec) } : {}),
      };
      const inSync = Object.keys(patch).length === 0;
      if (!inSync) await client.patchKey(keyId, patch);
      return { wrote: !inSync, message: `Service key active in Secret "${spec.secretName}"`, fields: { keyId } };
    },
    async cleanup(object: KubeObject, client: ManagementClient): Promise<void> {
      const keyId = keyIdOf(object);
      if (keyId !== undefined) await client.revokeKey(keyId);
    },
  };
}
