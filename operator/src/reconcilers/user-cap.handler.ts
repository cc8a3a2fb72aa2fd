import { isDeepStrictEqual } from 'node:util';
import { userCapSpec, type UserCapSpec } from '@gw/contracts';
import type { KubeApi, KubeObject } from '../kube/kube-api.js';
import type { ManagementClient, UserLimitsPatch, UserLimitsView } from '../management/management-client.js';
import { readSecret } from './context.js';
import { PolicyRefusal, type ApplyResult, type PolicyHandler } from './policy-reconciler.js';

/** Which Secret version the write-only webhook URL was last applied from (`<secret>@<resourceVersion>`). */
export const webhookVersionAnnotation = 'gw.dev/webhook-secret-version';

function specOf(object: KubeObject): UserCapSpec {
  return userCapSpec.parse(object.spec);
}

const money = (value: string | undefined): number | null => (value === undefined ? null : Number(value));

/** What the gateway should show for this resource: everything readable (the URL itself never is). */
function desiredView(spec: UserCapSpec): UserLimitsView {
  return {
    monthlyTokens: spec.monthlyTokens ?? null,
    maxUsd: money(spec.maxUsd),
    softUsd: money(spec.softUsd),
    reset: spec.reset,
    alerts: spec.alerts ? { thresholdsPercent: spec.alerts.thresholdsPercent, webhookConfigured: true } : null,
  };
}

/**
 * UserCap → the user's cap entry through `PATCH /admin/v1/users/{user}/limits`; cleared on deletion.
 * Drift is judged on what the gateway shows; the webhook URL is write-only, so it is sent again only when the entry
 * lost it or its Secret changed since it was last applied (recorded in an annotation).
 */
export function userCapHandler(api: KubeApi): PolicyHandler {
  return {
    kind: 'UserCap',
    claim: (object) => `${specOf(object).gatewayRef.name}/user:${specOf(object).user}`,
    describeClaim: (object) =>
      `sets the cap of user "${specOf(object).user}" on Gateway "${specOf(object).gatewayRef.name}"`,
    async apply(object: KubeObject, client: ManagementClient): Promise<ApplyResult> {
      const spec = specOf(object);
      const applied = object.metadata.annotations?.[webhookVersionAnnotation] ?? null;
      let webhook: { url: string; version: string } | null = null;
      if (spec.alerts) {
        const ref = spec.alerts.webhookSecretRef;
        const secret = await readSecret(api, object.metadata.namespace, ref);
        if (secret === null) throw new PolicyRefusal('SecretNotFound', `Secret "${ref.name}" has no key "${ref.key}"`);
        webhook = { url: secret.value.trim(), version: `${ref.name}@${secret.resourceVersion}` };
      }
      const desired = desiredView(spec);
      const current = await client.getUserLimits(spec.user);
      const readableInSync = current !== null && isDeepStrictEqual(current, desired);
      const webhookCurrent =
        webhook === null || (current?.alerts?.webhookConfigured === true && applied === webhook.version);
      if (!readableInSync || !webhookCurrent) {
        const alerts: UserLimitsPatch['alerts'] = spec.alerts
          ? {
              thresholdsPercent: spec.alerts.thresholdsPercent,
              ...(webhook && !webhookCurrent ? { webhookUrl: webhook.url } : {}),
            }
          : null;
        await client.patchUserLimits(spec.user, {
          monthlyTokens: desired.monthlyTokens,
          maxUsd: desired.maxUsd,
          softUsd: desired.softUsd,
          reset: desired.reset,
          alerts,
        });
      }
      return {
        wrote: !readableInSync || !webhookCurrent,
        secretRotated: readableInSync && webhook !== null && applied !== null && applied !== webhook.version,
        message: `Cap for "${spec.user}" applied${webhook ? ' with alerts' : ''}`,
        annotations: { [webhookVersionAnnotation]: webhook?.version ?? null },
      };
    },
    async cleanup(object: KubeObject, client: ManagementClient): Promise<void> {
      await client.clearUserLimits(specOf(object).user);
    },
  };
}
