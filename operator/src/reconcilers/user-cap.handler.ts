import { isDeepStrictEqual } from 'node:util';
import { userCapSpec, type UserCapSpec } from '@gw/contracts';
import type { KubeApi, KubeObject } from '../kube/kube-api.js';
import type { ManagementClient, UserLimits } from '../management/management-client.js';
import { readSecretValue } from './context.js';
import { PolicyRefusal, type ApplyResult, type PolicyHandler } from './policy-reconciler.js';

function specOf(object: KubeObject): UserCapSpec {
  return userCapSpec.parse(object.spec);
}

/** UserCap → the user's cap entry (spec 000 §2) through `/admin/v1/users/{user}/limits`; cleared on deletion. */
export function userCapHandler(api: KubeApi): PolicyHandler {
  return {
    kind: 'UserCap',
    claim: (object) => `${specOf(object).gatewayRef.name}/user:${specOf(object).user}`,
    describeClaim: (object) => `sets the cap of user "${specOf(object).user}" on Gateway "${specOf(object).gatewayRef.name}"`,
    async apply(object: KubeObject, client: ManagementClient): Promise<ApplyResult> {
      const spec = specOf(object);
      let alerts: UserLimits['alerts'] = null;
      if (spec.alerts) {
        const webhookUrl = await readSecretValue(api, object.metadata.namespace, spec.alerts.webhookSecretRef);
        if (webhookUrl === null) throw new PolicyRefusal('SecretNotFound', `Secret "${spec.alerts.webhookSecretRef.name}" has no key "${spec.alerts.webhookSecretRef.key}"`);
        alerts = { thresholdsPercent: spec.alerts.thresholdsPercent, webhookUrl };
      }
      const desired: UserLimits = {
        monthlyTokens: spec.monthlyTokens ?? null,
        maxUsd: spec.maxUsd === undefined ? null : Number(spec.maxUsd),
        softUsd: spec.softUsd === undefined ? null : Number(spec.softUsd),
        reset: spec.reset,
        alerts,
      };
      const current = await client.getUserLimits(spec.user);
      const inSync = current !== null && isDeepStrictEqual({ ...current, alerts: current.alerts ?? null }, desired);
      if (!inSync) await client.putUserLimits(spec.user, desired);
      return { wrote: !inSync, message: `Cap for "${spec.user}" applied` };
    },
    async cleanup(object: KubeObject, client: ManagementClient): Promise<void> {
      await client.deleteUserLimits(specOf(object).user);
    },
  };
}
