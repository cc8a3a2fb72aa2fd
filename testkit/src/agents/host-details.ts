import type { OsqueryEnrollRequest } from '@gw/contracts';
import { OSQUERY_VERSION, type HostIdentity, type SimulatedPlatform } from './host-identity.js';

type OsVersion = Readonly<Record<string, string>>;

/** `os_version` as osquery reads it; on Linux `platform` is the distribution id, not "linux". */
const OS_VERSIONS: Readonly<Record<SimulatedPlatform, OsVersion>> = {
  darwin: {
    name: 'macOS',
    version: '14.5',
    major: '14',
    minor: '5',
    patch: '0',
    build: '23F79',
    platform: 'darwin',
    platform_like: 'darwin',
    codename: '',
    arch: 'arm64',
  },
  linux: {
    name: 'Ubuntu',
    version: '22.04.4 LTS (Jammy Jellyfish)',
    major: '22',
    minor: '4',
    patch: '0',
    build: '',
    platform: 'ubuntu',
    platform_like: 'debian',
    codename: 'jammy',
    arch: 'x86_64',
  },
  windows: {
    name: 'Microsoft Windows 11 Pro',
    version: '10.0.22631',
    major: '10',
    minor: '0',
    patch: '',
    build: '22631',
    platform: 'windows',
    platform_like: 'windows',
    codename: 'Microsoft Windows 11 Pro',
    arch: '64-bit',
  },
};

/** osquery's `kPlatformType` bit mask, sent as a decimal string: POSIX|BSD|OSX, POSIX|LINUX, WINDOWS. */
const PLATFORM_TYPES: Readonly<Record<SimulatedPlatform, string>> = { darwin: '21', linux: '9', windows: '2' };

const BUILD_DISTROS: Readonly<Record<SimulatedPlatform, string>> = { darwin: '10.14', linux: 'centos7', windows: '10' };

export function osVersionOf(platform: SimulatedPlatform): OsVersion {
  return OS_VERSIONS[platform];
}

/**
 * osquery's enroll body: the secret, the host identifier (fleetd runs osquery with `--host_identifier=uuid`), the
 * platform mask, and the first row of each enroll table, every value a string. A subset of the tables' columns.
 */
export function osqueryEnrollBody(
  identity: HostIdentity,
  enrollSecret: string,
  startedAtSeconds: number,
): OsqueryEnrollRequest {
  const osVersion = OS_VERSIONS[identity.platform];
  return {
    enroll_secret: enrollSecret,
    host_identifier: identity.hardwareUuid,
    platform_type: PLATFORM_TYPES[identity.platform],
    host_details: {
      os_version: { ...osVersion },
      osquery_info: {
        pid: '4242',
        uuid: identity.osqueryUuid,
        instance_id: identity.osqueryInstanceId,
        version: OSQUERY_VERSION,
        build_platform: osVersion.platform,
        build_distro: BUILD_DISTROS[identity.platform],
        start_time: String(startedAtSeconds),
        watcher: '4241',
        platform_mask: PLATFORM_TYPES[identity.platform],
      },
      system_info: {
        hostname: identity.hostname,
        uuid: identity.hardwareUuid,
        cpu_brand: identity.platform === 'darwin' ? 'Apple M1 Pro' : 'Intel(R) Core(TM) i7-1185G7 @ 3.00GHz',
        physical_memory: '17179869184',
        hardware_vendor: identity.hardwareVendor,
        hardware_model: identity.hardwareModel,
        hardware_serial: identity.hardwareSerial,
        computer_name: identity.hostname,
        local_hostname: identity.hostname,
      },
    },
  };
}
