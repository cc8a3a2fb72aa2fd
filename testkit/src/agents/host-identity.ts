import { randomBytes, randomUUID } from 'node:crypto';

export type SimulatedPlatform = 'darwin' | 'linux' | 'windows';

/** The osquery fleetd ships; every enroll and status log carries it. */
export const OSQUERY_VERSION = '5.13.1';

/** Who the simulated machine is: fixed for the host's lifetime, so re-enrollment presents the same hardware. */
export interface HostIdentity {
  platform: SimulatedPlatform;
  hostname: string;
  hardwareUuid: string;
  hardwareSerial: string;
  hardwareModel: string;
  hardwareVendor: string;
  /** `osquery_info.uuid`. */
  osqueryUuid: string;
  /** `osquery_info.instance_id`: random per osquery install. */
  osqueryInstanceId: string;
}

export interface HostIdentityOptions {
  platform?: SimulatedPlatform | undefined;
  hostname?: string | undefined;
  hardwareUuid?: string | undefined;
  hardwareSerial?: string | undefined;
  osqueryUuid?: string | undefined;
}

const HARDWARE: Readonly<Record<SimulatedPlatform, { model: string; vendor: string }>> = {
  darwin: { model: 'MacBookPro18,3', vendor: 'Apple Inc.' },
  linux: { model: '20XW0055US', vendor: 'LENOVO' },
  windows: { model: 'Latitude 7420', vendor: 'Dell Inc.' },
};

const SERIAL_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ0123456789';

export function hostIdentityOf(options: HostIdentityOptions): HostIdentity {
  const platform = options.platform ?? 'darwin';
  // SMBIOS and IOKit report the hardware UUID in upper case.
  const hardwareUuid = options.hardwareUuid ?? randomUUID().toUpperCase();
  return {
    platform,
    hostname: options.hostname ?? `sim-${randomBytes(4).toString('hex')}`,
    hardwareUuid,
    hardwareSerial: options.hardwareSerial ?? randomSerial(),
    hardwareModel: HARDWARE[platform].model,
    hardwareVendor: HARDWARE[platform].vendor,
    // osquery_info.uuid is the system's UUID, not a per-install id (that is instance_id).
    osqueryUuid: options.osqueryUuid ?? hardwareUuid,
    osqueryInstanceId: randomUUID(),
  };
}

function randomSerial(): string {
  let serial = '';
  for (const byte of randomBytes(12)) serial += SERIAL_ALPHABET[byte % SERIAL_ALPHABET.length];
  return serial;
}
