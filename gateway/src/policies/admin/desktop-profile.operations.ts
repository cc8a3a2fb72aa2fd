import { z } from 'zod';
import { gatewayBaseUrl } from '../desktop-bootstrap.js';
import { buildDesktopProfile, mobileconfigContentType } from '../desktop-profile.js';
import type { DesktopPolicyStore } from '../desktop-policy.store.js';
import { defineOperation, type AdminOperation } from '../../admin/operation.js';
import { gatewayError } from '../../errors.js';

export interface DesktopProfileOperationDeps {
  policies: DesktopPolicyStore;
  /** `GW_PUBLIC_URL`: what the profile pins; else the origin the administrator called. */
  publicUrl: string | undefined;
  /** `GW_DEPLOYMENT_ID`: what the payload UUIDs derive from; else the base URL. */
  deploymentId: string | undefined;
}

// A profile pinning a bootstrap endpoint that answers 404 would leave every managed Mac without a policy.
const policyDisabled = () => gatewayError('desktop_policy_disabled_for_profile');

/** `GET /admin/claude-desktop-policy/mobileconfig` and `/admin/v1/policies/claude-desktop/mobileconfig`: one handler. */
export function desktopProfileOperations(deps: DesktopProfileOperationDeps): AdminOperation[] {
  return [
    defineOperation({
      id: 'desktopPolicy.mobileconfig',
      summary:
        'Download the macOS configuration profile (application/x-apple-aspen-config) pinning the bootstrap endpoint and the headers-helper path; embeds no key; 409 desktop_policy_disabled while the policy is off',
      method: 'GET',
      capability: 'config:read',
      legacy: [{ path: '/admin/claude-desktop-policy/mobileconfig' }],
      v1: { path: '/admin/v1/policies/claude-desktop/mobileconfig' },
      xScope: 'deployment',
      response: z
        .string()
        .describe('An XML property list (Apple configuration profile), served as application/x-apple-aspen-config'),
      handler: async ({ request, reply }) => {
        const policy = await deps.policies.read();
        if (!policy.enabled) throw policyDisabled();
        const baseUrl = gatewayBaseUrl(deps.publicUrl, `${request.protocol}://${request.host}`);
        const profile = buildDesktopProfile({
          deployment: deps.deploymentId ?? baseUrl,
          baseUrl,
          revision: policy.revision,
        });
        void reply
          .header('content-type', mobileconfigContentType)
          .header('content-disposition', 'attachment; filename="gw-claude-desktop.mobileconfig"')
          .header('cache-control', 'no-store');
        // A buffer goes out as it is: the JSON serializer of the operation table never touches the XML.
        return Buffer.from(profile, 'utf8');
      },
    }),
  ];
}
