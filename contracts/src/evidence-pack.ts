/**
 * The endpoint policy pack (spec 001 §2.9 catalog, §4.2 "Policy and script review"), shared by the evidence service,
 * which serves and templates it, and the gateway, which reports whether the service runs the pack its own image
 * bundles (`packSync`, spec 000 §4.6). Data only: each service hashes it into the pack version.
 */
export type PolicyPlatform = 'darwin' | 'linux' | 'windows';

/** One check of the image's policy pack (spec 001 §2.9 catalog, §4.2 "Policy and script review"). */
export interface PackPolicy {
  name: string;
  platform: PolicyPlatform;
  critical: boolean;
  description: string;
  resolution: string;
  /** osquery SQL; `{{…}}` placeholders are filled per organization when the catalog is served. */
  query: string;
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
    query: "SELECT 1 FROM screenlock WHERE enabled = 1 AND grace_period <= {{screen_lock_minutes}} * 60;",
  },
  {
    name: 'macos-firewall',
    platform: 'darwin',
    critical: false,
    description: 'The application firewall is on.',
    resolution: 'System Settings → Network → Firewall → On.',
    query: 'SELECT 1 FROM alf WHERE global_state >= 1;',
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
    query: "SELECT 1 FROM users u JOIN gnome_settings g ON g.uid = u.uid WHERE g.key = 'lock-enabled' AND g.value = 'true';",
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
    query: 'SELECT 1 FROM windows_security_center WHERE firewall = \'Good\';',
  },
];
