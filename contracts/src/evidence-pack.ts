/**
 * The endpoint policy pack, shared by the evidence service,
 * which serves and templates it, and the gateway, which reports whether the service runs the pack its own image
 * bundles (`packSync`). Data only: each service hashes it into the pack version.
 */
export type PolicyPlatform = 'darwin' | 'linux' | 'windows';

/** One check of the image's policy pack. */
export interface PackPolicy {
  name: string;
  platform: PolicyPlatform;
  critical: boolean;
  description: string;
  resolution: string;
  /** osquery SQL; `{{…}}` placeholders are filled per organization when the catalog is served. */
  query: string;
  /**
   * The one remediation script this check dispatches on built-in agent hosts, by name (the contract "each policy
   * maps to exactly one script name"). A check without one is monitor-only everywhere.
   */
  script?: string;
}

export type ScriptInterpreter = 'sh' | 'powershell';

/** A remediation script compiled into the image, listed with its whole contents before it can ever run. */
export interface RemediationScript {
  name: string;
  platform: PolicyPlatform;
  interpreter: ScriptInterpreter;
  description: string;
  contents: string;
}

/**
 * The policy pack compiled into the service image. Reviewed here, before anything runs: every check is a read-only
 * osquery query. Names are the stable identifiers reports use.
 */
export const policyPack: readonly PackPolicy[] = [
  {
    name: 'macos-disk-encryption',
    platform: 'darwin',
    critical: true,
    description: 'FileVault full-disk encryption is on for the boot volume.',
    resolution: 'System Settings → Privacy & Security → FileVault → Turn On.',
    query: "SELECT 1 FROM disk_encryption WHERE user_uuid IS NOT '' AND filevault_status = 'on' LIMIT 1;",
  },
  {
    name: 'macos-screen-lock',
    platform: 'darwin',
    critical: false,
    description: 'The screen locks after at most {{screen_lock_minutes}} minutes idle and asks for a password.',
    resolution: 'System Settings → Lock Screen: require a password immediately after the screen saver starts.',
    query: 'SELECT 1 FROM screenlock WHERE enabled = 1 AND grace_period <= {{screen_lock_minutes}} * 60;',
    script: 'macos-require-password-after-screensaver.sh',
  },
  {
    name: 'macos-firewall',
    platform: 'darwin',
    critical: false,
    description: 'The application firewall is on.',
    resolution: 'System Settings → Network → Firewall → On.',
    query: 'SELECT 1 FROM alf WHERE global_state >= 1;',
    script: 'macos-enable-firewall.sh',
  },
  {
    name: 'macos-system-integrity-protection',
    platform: 'darwin',
    critical: true,
    description: 'System Integrity Protection is enabled.',
    resolution: 'Restart into Recovery and run `csrutil enable`.',
    query: "SELECT 1 FROM sip_config WHERE config_flag = 'sip' AND enabled = 1;",
  },
  {
    name: 'linux-disk-encryption',
    platform: 'linux',
    critical: true,
    description: 'The root filesystem is on an encrypted (LUKS) volume.',
    resolution: 'Reinstall with full-disk encryption, or migrate the root volume to LUKS.',
    query: "SELECT 1 FROM mounts m JOIN disk_encryption d ON d.name = m.device WHERE m.path = '/' AND d.encrypted = 1;",
  },
  {
    name: 'linux-screen-lock',
    platform: 'linux',
    critical: false,
    description: 'The GNOME session locks when idle.',
    resolution: 'Settings → Privacy → Screen Lock → Automatic Screen Lock on.',
    query:
      "SELECT 1 FROM users u JOIN gnome_settings g ON g.uid = u.uid WHERE g.key = 'lock-enabled' AND g.value = 'true';",
    script: 'linux-enable-gnome-screen-lock.sh',
  },
  {
    name: 'windows-disk-encryption',
    platform: 'windows',
    critical: true,
    description: 'BitLocker protects the system drive.',
    resolution: 'Control Panel → BitLocker Drive Encryption → Turn on BitLocker for the system drive.',
    query: "SELECT 1 FROM bitlocker_info WHERE drive_letter = 'C:' AND protection_status = 1;",
  },
  {
    name: 'windows-firewall',
    platform: 'windows',
    critical: false,
    description: 'Windows Defender Firewall is on for every profile.',
    resolution: 'Windows Security → Firewall & network protection: turn on every profile.',
    query: "SELECT 1 FROM windows_security_center WHERE firewall = 'Good';",
  },
];

/**
 * The remediation scripts compiled into the image.
 * Each is idempotent and changes one setting. The PowerShell script has no dispatching policy, so Windows hosts are
 * monitor-only in practice: it is listed for review, never queued.
 */
export const remediationScripts: readonly RemediationScript[] = [
  {
    name: 'macos-enable-firewall.sh',
    platform: 'darwin',
    interpreter: 'sh',
    description: 'Turns the application firewall on.',
    contents:
      '#!/bin/sh\nset -eu\n/usr/libexec/ApplicationFirewall/socketfilterfw --setglobalstate on\n/usr/libexec/ApplicationFirewall/socketfilterfw --getglobalstate\n',
  },
  {
    name: 'macos-require-password-after-screensaver.sh',
    platform: 'darwin',
    interpreter: 'sh',
    description: 'Asks for the password immediately after the screen saver or sleep starts.',
    contents:
      '#!/bin/sh\nset -eu\n/usr/sbin/sysadminctl -screenLock immediate -password - </dev/null || /usr/bin/defaults write com.apple.screensaver askForPasswordDelay -int 0\n',
  },
  {
    name: 'linux-enable-gnome-screen-lock.sh',
    platform: 'linux',
    interpreter: 'sh',
    description: 'Turns on GNOME automatic screen lock for every signed-in session.',
    contents:
      '#!/bin/sh\nset -eu\nfor uid in $(loginctl list-users --no-legend | awk \'{print $1}\'); do\n  user=$(id -nu "$uid")\n  runuser -u "$user" -- env DBUS_SESSION_BUS_ADDRESS="unix:path=/run/user/$uid/bus" gsettings set org.gnome.desktop.screensaver lock-enabled true\ndone\n',
  },
  {
    name: 'windows-enable-firewall.ps1',
    platform: 'windows',
    interpreter: 'powershell',
    description: 'Turns Windows Defender Firewall on for every profile.',
    contents:
      'Set-NetFirewallProfile -Profile Domain,Public,Private -Enabled True\r\nGet-NetFirewallProfile | Select-Object Name, Enabled\r\n',
  },
];

/** What the pack version hashes: the checks and the scripts they dispatch, so a script change is a new pack too. */
export const packContent = { policies: policyPack, scripts: remediationScripts } as const;
