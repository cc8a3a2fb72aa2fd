import { z } from 'zod';
import { gatewayBaseUrl } from '../../policies/desktop-bootstrap.js';
import { mobileconfigContentType } from '../../policies/desktop-profile.js';
import { defineOperation, type AdminOperation } from '../../admin/operation.js';
import { boundTenantOf } from '../../admin/tenant-reach.js';
import { buildAgentEnrollmentProfile } from '../agent-enrollment-profile.js';
import { liveEnrollSecret } from '../live-enroll-secret.js';
import { connectedEndpoint, type EndpointOperationDeps } from './endpoint.operations.js';

export interface MdmProfileOperationDeps extends EndpointOperationDeps {
  /** `GW_PUBLIC_URL`: the agent URL when `GW_ENDPOINT_AGENT_URL` is unset; else the origin the administrator called. */
  publicUrl: string | undefined;
  /** `GW_DEPLOYMENT_ID`: what the payload UUIDs derive from; else the base URL. */
  deploymentId: string | undefined;
}

/**
 * `POST /admin/endpoint-fleet/mdm-profile` and `/admin/v1/fleet/mdm-profile`: the macOS profile that enrolls the
 * endpoint agent, carrying the organization's live enroll secret. Minting it reads the secret, never rotates it; the
 * answer is `no-store`, and the audit names the organization, never the body.
 */
export function mdmProfileOperations(deps: MdmProfileOperationDeps): AdminOperation[] {
  return [
    defineOperation({
      id: 'fleet.mdmProfile.download',
      summary:
        'Download the macOS enrollment profile for the endpoint agent (application/x-apple-aspen-config) carrying the live enroll secret; does not rotate it; 409 enroll_secret_unavailable until one was rotated through the gateway',
      description:
        'An Apple configuration profile (XML plist) with one `com.fleetdm.fleetd.config` payload: `EnrollSecret` (the organization’s live enroll secret) and `FleetURL` (GW_ENDPOINT_AGENT_URL, else GW_PUBLIC_URL, else this origin), for an agent package built to read its settings from the system. The payload UUIDs derive from GW_DEPLOYMENT_ID (else the base URL) and the organization, so an MDM replaces an installed profile. No request body. `Cache-Control: no-store`; the audit records who minted it, never the body. 404 without an evidence service (GW_ENDPOINT_CONTROL_URL); 409 `enroll_secret_unavailable` until the secret was rotated through the gateway (POST /admin/v1/fleet/enroll-secret/rotate), or after it was rotated or revoked at the service directly; 502 when the service does not answer.',
      method: 'POST',
      capability: 'enrollment:manage',
      legacy: [{ path: '/admin/endpoint-fleet/mdm-profile' }],
      v1: { path: '/admin/v1/fleet/mdm-profile', scope: 'fleet:enroll' },
      xScope: 'tenant',
      media: { response: [mobileconfigContentType] },
      response: z
        .string()
        .describe('An XML property list (Apple configuration profile); a live credential, never cache or log it'),
      auditSubjects: () => ({ target: 'mdm-profile', subject: null }),
      handler: async ({ principal, request, reply }) => {
        const endpoint = connectedEndpoint(deps.endpoint);
        const orgId = endpoint.orgs.orgIdOf(boundTenantOf(deps.fleetMode, principal));
        const enrollSecret = await liveEnrollSecret(endpoint, orgId);
        const baseUrl = gatewayBaseUrl(deps.publicUrl, `${request.protocol}://${request.host}`);
        const profile = buildAgentEnrollmentProfile({
          deployment: deps.deploymentId ?? baseUrl,
          orgId,
          agentUrl: (endpoint.agentUrl ?? baseUrl).replace(/\/+$/, ''),
          enrollSecret,
        });
        void reply
          .header('content-type', mobileconfigContentType)
          .header('content-disposition', 'attachment; filename="gw-endpoint-agent.mobileconfig"')
          .header('cache-control', 'no-store');
        return Buffer.from(profile, 'utf8');
      },
    }),
  ];
}
