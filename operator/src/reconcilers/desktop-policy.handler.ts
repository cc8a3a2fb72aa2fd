import { isDeepStrictEqual } from 'node:util';
import { desktopPolicySpec, type DesktopPolicySpec } from '@gw/contracts';
import type { KubeObject } from '../kube/kube-api.js';
import type { DesktopPolicyDocument, ManagementClient } from '../management/management-client.js';
import type { ApplyResult, PolicyHandler } from './policy-reconciler.js';

function specOf(object: KubeObject): DesktopPolicySpec {
  return desktopPolicySpec.parse(object.spec);
}

/**
 * DesktopPolicy → `PUT /admin/v1/policies/claude-desktop`; one per Gateway. The gateway refuses
 * credential-shaped values at every depth (400 policy_carries_credential); that surfaces as Stalled, reason
 * RejectedByGateway, with the offending path (never the value) in the message. Deletion disables and empties it.
 */
export const desktopPolicyHandler: PolicyHandler = {
  kind: 'DesktopPolicy',
  claim: (object) => `${specOf(object).gatewayRef.name}/desktop-policy`,
  describeClaim: (object) => `sets the desktop-client policy of Gateway "${specOf(object).gatewayRef.name}"`,
  async apply(object: KubeObject, client: ManagementClient): Promise<ApplyResult> {
    const spec = specOf(object);
    const desired: DesktopPolicyDocument = { enabled: spec.enabled, settings: spec.settings };
    const wrote = !isDeepStrictEqual(await client.getDesktopPolicy(), desired);
    if (wrote) await client.putDesktopPolicy(desired);
    return {
      wrote,
      message: spec.enabled ? 'Desktop-client policy served' : 'Desktop-client policy applied (disabled)',
    };
  },
  async cleanup(_object: KubeObject, client: ManagementClient): Promise<void> {
    await client.putDesktopPolicy({ enabled: false, settings: {} });
  },
};
