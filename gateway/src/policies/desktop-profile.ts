import { createHash } from 'node:crypto';
import { build } from 'plist';
import { bootstrapPath, headersHelperPaths } from './desktop-bootstrap.js';

/**
 * The macOS configuration profile an administrator pushes through their MDM so the desktop assistant trusts this
 * gateway (`GET /admin/claude-desktop-policy/mobileconfig`): it pins the bootstrap endpoint and the path of the
 * bootstrap-headers helper, and embeds no key (the helper reads the developer's own key on the device).
 *
 * The payload UUIDs are name-based (UUID version 5) on the deployment, so re-downloading the profile yields the same
 * identifiers and an MDM replaces the installed profile instead of stacking a second one.
 */

/** The desktop assistant's preference domain on macOS: the inner payload's type. */
export const desktopPreferenceDomain = 'com.anthropic.claudefordesktop';
export const mobileconfigContentType = 'application/x-apple-aspen-config';

// A fixed namespace for this project's profile UUIDs (itself a random UUID, chosen once).
const profileNamespace = '4f6d0c3e-9a1b-4c55-8e2d-7b3f10a9c6e1';

/** RFC 9562 name-based UUID, SHA-1 (version 5). */
export function nameBasedUuid(name: string, namespace = profileNamespace): string {
  const digest = createHash('sha1')
    .update(Buffer.from(namespace.replace(/-/g, ''), 'hex'))
    .update(name, 'utf8')
    .digest();
  digest[6] = ((digest[6] ?? 0) & 0x0f) | 0x50;
  digest[8] = ((digest[8] ?? 0) & 0x3f) | 0x80;
  const hex = digest.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`.toUpperCase();
}

export interface DesktopProfileInput {
  /** What identifies the deployment: `GW_DEPLOYMENT_ID`, else the gateway's base URL. */
  deployment: string;
  /** The gateway's base URL (no trailing slash). */
  baseUrl: string;
  /** The policy revision the profile was minted at (informational: the client fetches the live policy). */
  revision: number;
}

/** A reverse-DNS-safe label of the deployment for PayloadIdentifier. */
export function identifierLabel(deployment: string): string {
  return createHash('sha256').update(deployment, 'utf8').digest('hex').slice(0, 16);
}

/** The profile as an XML property list. */
export function buildDesktopProfile(input: DesktopProfileInput): string {
  const label = identifierLabel(input.deployment);
  const identifier = `dev.gw.${label}.claude-desktop`;
  const bootstrapUrl = `${input.baseUrl}${bootstrapPath}?os=macos`;
  const settingsPayload = {
    PayloadType: desktopPreferenceDomain,
    PayloadIdentifier: `${identifier}.settings`,
    PayloadUUID: nameBasedUuid(`${input.deployment}|claude-desktop|settings`),
    PayloadVersion: 1,
    PayloadDisplayName: 'Claude Desktop: gateway bootstrap',
    PayloadDescription: 'Points the desktop assistant at this gateway’s bootstrap endpoint and its headers helper.',
    PayloadEnabled: true,
    gatewayBaseUrl: input.baseUrl,
    bootstrapUrl,
    bootstrapHeadersHelper: headersHelperPaths.macos,
  };
  return build({
    PayloadType: 'Configuration',
    PayloadIdentifier: identifier,
    PayloadUUID: nameBasedUuid(`${input.deployment}|claude-desktop|profile`),
    PayloadVersion: 1,
    PayloadDisplayName: 'gw: Claude Desktop policy',
    PayloadDescription: `Trusts the gateway at ${input.baseUrl} for the desktop assistant’s managed policy (revision ${input.revision} when downloaded). Carries no credential.`,
    PayloadOrganization: 'gw',
    PayloadScope: 'System',
    PayloadRemovalDisallowed: false,
    PayloadContent: [settingsPayload],
  });
}
