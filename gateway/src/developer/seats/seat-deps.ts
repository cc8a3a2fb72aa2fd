import type { Clock, Db } from '@gw/platform';
import { DeviceMachineStore } from './device-machine.store.js';
import { DeviceTokenStore } from './device-token.store.js';
import { HookSavingsStore } from './hook-savings.store.js';
import { SeatDirectiveStore } from './seat-directive.store.js';
import { SeatStore } from './seat.store.js';

/** Developer seats' stores: doctor reports and offboarding, device tokens, directives, hook-trim savings, reported machines. */
export interface SeatDeps {
  store: SeatStore;
  deviceTokens: DeviceTokenStore;
  directives: SeatDirectiveStore;
  hookSavings: HookSavingsStore;
  /** Machine-to-seat joins reported with a device certificate (hashes only). */
  machines: DeviceMachineStore;
}

export function composeSeats(db: Db, clock: Clock): SeatDeps {
  return {
    store: new SeatStore(db, clock),
    deviceTokens: new DeviceTokenStore(db, clock),
    directives: new SeatDirectiveStore(db, clock),
    hookSavings: new HookSavingsStore(db, clock),
    machines: new DeviceMachineStore(db, clock),
  };
}
