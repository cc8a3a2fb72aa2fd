import { gatewayError } from '../../errors.js';
import { findCredential } from '../credential-shape.js';
import {
  desktopPolicyLimits,
  desktopPolicyPutBody,
  desktopPolicyResponse,
  type DesktopPolicySettings,
} from '../desktop-policy.schema.js';
import type { DesktopPolicyStore } from '../desktop-policy.store.js';
import { defineOperation, type AdminOperation } from '../../admin/operation.js';

function depthOf(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 0;
  let deepest = 0;
  for (const entry of Object.values(value)) deepest = Math.max(deepest, depthOf(entry));
  return deepest + 1;
}

/**
 * The write boundary of the desktop policy: bounded size and depth, and no credential-shaped string
 * at any depth, free-text keys included. The error names the path and the kind of secret, never the value.
 */
export function assertServablePolicy(settings: DesktopPolicySettings): void {
  if (Buffer.byteLength(JSON.stringify(settings)) > desktopPolicyLimits.maxBytes)
    throw gatewayError('invalid_request', `body.settings is larger than ${desktopPolicyLimits.maxBytes} bytes`);
  if (depthOf(settings) > desktopPolicyLimits.maxDepth)
    throw gatewayError('invalid_request', `body.settings nests deeper than ${desktopPolicyLimits.maxDepth} levels`);
  const finding = findCredential(settings, 'settings');
  if (finding) {
    throw gatewayError(
      'policy_carries_credential',
      `body.${finding.path} holds a credential-shaped value (${finding.kind}). The desktop policy is served to every client and never carries secrets; reference a secret on the device instead, for example "\${GITHUB_TOKEN}".`,
    );
  }
}

/** Desktop-client policy. */
export function desktopPolicyOperations({ policies }: { policies: DesktopPolicyStore }): AdminOperation[] {
  return [
    defineOperation({
      id: 'desktopPolicy.get',
      summary: 'Read the desktop-client policy (disabled and empty until first written)',
      method: 'GET',
      capability: 'config:read',
      legacy: [{ path: '/admin/claude-desktop-policy' }],
      v1: { path: '/admin/v1/policies/claude-desktop' },
      xScope: 'deployment',
      response: desktopPolicyResponse,
      handler: async () => policies.read(),
    }),
    defineOperation({
      id: 'desktopPolicy.put',
      summary:
        'Replace the desktop-client policy; 400 policy_carries_credential on any credential-shaped value, 409 on a stale expectedRevision',
      method: 'PUT',
      capability: 'desktopconfig:write',
      legacy: [{ path: '/admin/claude-desktop-policy' }],
      v1: { path: '/admin/v1/policies/claude-desktop' },
      xScope: 'deployment',
      body: desktopPolicyPutBody,
      response: desktopPolicyResponse,
      handler: async ({ body, principal }) => {
        assertServablePolicy(body.settings);
        return policies.replace(
          { enabled: body.enabled, settings: body.settings },
          body.expectedRevision,
          principal.actor,
        );
      },
    }),
  ];
}
