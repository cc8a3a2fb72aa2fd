import { build } from 'plist';
import { identifierLabel, nameBasedUuid } from '../policies/desktop-profile.js';

/**
 * The macOS configuration profile that enrolls the endpoint agent (`POST /admin/v1/fleet/mdm-profile`): an MDM
 * pushes it, and an agent package built to read its settings from the system (Fleet's `fleetd`, packaged with
 * `--use-system-configuration`) enrolls with the secret and URL it carries. Its payload type is the agent's own
 * preference domain, `com.fleetdm.fleetd.config`, with the agent's keys `EnrollSecret` and `FleetURL`.
 *
 * The payload UUIDs are name-based on the deployment and the evidence organization, so a re-download carries the
 * same identifiers and an MDM replaces the installed profile (with a rotated secret, say) instead of stacking one.
 */

/** The agent's preference domain on macOS: the inner payload's type. */
export const agentPreferenceDomain = 'com.fleetdm.fleetd.config';

export interface AgentEnrollmentProfileInput {
  /** What identifies the deployment: `GW_DEPLOYMENT_ID`, else the gateway's base URL. */
  deployment: string;
  /** The evidence organization the secret enrolls into (the deployment's, or a tenant's in fleet mode). */
  orgId: string;
  /** Where the agent enrolls: the origin serving the agent lane. */
  agentUrl: string;
  /** The live enroll secret: a credential, written into the profile and nowhere else. */
  enrollSecret: string;
}

/** The profile as an XML property list. */
export function buildAgentEnrollmentProfile(input: AgentEnrollmentProfileInput): string {
  const name = `${input.deployment}|${input.orgId}|endpoint-agent`;
  const identifier = `dev.gw.${identifierLabel(`${input.deployment}|${input.orgId}`)}.endpoint-agent`;
  const agentPayload = {
    PayloadType: agentPreferenceDomain,
    PayloadIdentifier: `${identifier}.config`,
    PayloadUUID: nameBasedUuid(`${name}|config`),
    PayloadVersion: 1,
    PayloadDisplayName: 'Endpoint agent enrollment',
    PayloadDescription: 'The enroll secret and URL the endpoint agent enrolls with.',
    PayloadEnabled: true,
    EnrollSecret: input.enrollSecret,
    FleetURL: input.agentUrl,
  };
  return build({
    PayloadType: 'Configuration',
    PayloadIdentifier: identifier,
    PayloadUUID: nameBasedUuid(`${name}|profile`),
    PayloadVersion: 1,
    PayloadDisplayName: 'gw: endpoint agent enrollment',
    PayloadDescription: `Enrolls the endpoint agent at ${input.agentUrl}. Carries a live enroll secret: distribute it through your MDM only.`,
    PayloadOrganization: 'gw',
    PayloadScope: 'System',
    PayloadRemovalDisallowed: false,
    PayloadContent: [agentPayload],
  });
}
