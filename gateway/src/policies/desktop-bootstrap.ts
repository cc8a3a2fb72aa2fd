import { z } from 'zod';
import { desktopPolicySettings, type DesktopPolicyView } from './desktop-policy.schema.js';

/**
 * What the desktop assistant fetches on start (`GET /connect/claude-desktop/bootstrap`): the desktop policy as this
 * operating system applies it, where to send inference, and how the client obtains its credentials. It carries no
 * secret: the policy's write boundary refuses credential-shaped values, and the client key itself comes from the
 * headers helper on the device, never from this document.
 */

export const desktopOperatingSystems = ['macos', 'windows', 'linux'] as const;
export type DesktopOperatingSystem = (typeof desktopOperatingSystems)[number];

/**
 * Where the installers put the bootstrap-headers helper: a program the desktop client runs to obtain the request
 * headers (the developer's client key in `x-gw-api-key`) from the device's keychain or credential store.
 */
export const headersHelperPaths: Readonly<Record<DesktopOperatingSystem, string>> = {
  macos: '/Library/Application Support/gw/bin/gw-desktop-headers',
  windows: 'C:\\Program Files\\gw\\bin\\gw-desktop-headers.exe',
  linux: '/opt/gw/bin/gw-desktop-headers',
};

/** The header the helper fills; the gateway reads client keys from it first. */
export const helperKeyHeader = 'x-gw-api-key';

export const bootstrapPath = '/connect/claude-desktop/bootstrap';

export const bootstrapQuery = z.strictObject({
  os: z
    .enum(desktopOperatingSystems)
    .default('macos')
    .describe('The operating system whose credential-helper path to return (default macos)'),
});

export const bootstrapResponse = z.object({
  os: z.enum(desktopOperatingSystems),
  revision: z.int().describe('The desktop policy revision served; changes whenever an administrator saves the policy'),
  gateway: z.object({ baseUrl: z.string().describe('Where the client sends inference and connect calls') }),
  credentials: z.object({
    mode: z
      .literal('headers-helper')
      .describe('The client runs the helper for its request headers; the gateway never hands out a key here'),
    helperPath: z.string().describe('This operating system’s bootstrap-headers helper'),
    header: z.literal(helperKeyHeader).describe('The header the helper fills with the developer’s client key'),
  }),
  settings: desktopPolicySettings,
  caller: z
    .object({ user: z.string().nullable(), team: z.string() })
    .nullable()
    .describe('The verified key’s attribution when a client key was presented; null for an unauthenticated fetch'),
});
export type DesktopBootstrap = z.infer<typeof bootstrapResponse>;

/** The policy as one operating system's client receives it; the caller's policy must be enabled. */
export function desktopBootstrapOf(
  policy: DesktopPolicyView,
  os: DesktopOperatingSystem,
  baseUrl: string,
  caller: DesktopBootstrap['caller'],
): DesktopBootstrap {
  return {
    os,
    revision: policy.revision,
    gateway: { baseUrl },
    credentials: { mode: 'headers-helper', helperPath: headersHelperPaths[os], header: helperKeyHeader },
    settings: policy.settings,
    caller,
  };
}

/** `GW_PUBLIC_URL` without a trailing slash, or the origin the request arrived on. */
export function gatewayBaseUrl(publicUrl: string | undefined, requestOrigin: string): string {
  return (publicUrl ?? requestOrigin).replace(/\/+$/, '');
}
