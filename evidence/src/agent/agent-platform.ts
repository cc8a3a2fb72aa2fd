export type HostPlatform = 'darwin' | 'linux' | 'windows' | 'unknown';

// osquery reports the distribution id as the platform on Linux (`os_version.platform`), not "linux".
const linuxPlatforms = new Set([
  'linux',
  'ubuntu',
  'debian',
  'rhel',
  'centos',
  'fedora',
  'amzn',
  'arch',
  'manjaro',
  'opensuse',
  'opensuse-leap',
  'opensuse-tumbleweed',
  'sles',
  'suse',
  'gentoo',
  'rocky',
  'almalinux',
  'ol',
  'pop',
  'linuxmint',
  'kali',
  'nixos',
]);

/** The pack's platform of an agent-reported osquery platform; anything unrecognised is `unknown` (no check applies). */
export function hostPlatformOf(...reported: Array<string | undefined>): HostPlatform {
  for (const value of reported) {
    const platform = value?.trim().toLowerCase();
    if (!platform) continue;
    if (platform === 'darwin' || platform === 'windows') return platform;
    if (linuxPlatforms.has(platform)) return 'linux';
  }
  return 'unknown';
}
