import type { Clock, Coord, Db } from '@gw/platform';
import type { Governance } from './governance.js';
import type { SpendRing } from '../metering/spend-recorder.js';
import type { AdminOperation } from '../admin/operation.js';
import { spendOperations } from './spend/spend.operations.js';
import { capOperations } from './caps.operations.js';
import { limitOperations } from './limits.operations.js';

/** The governance issue's admin operations: per-user caps, rate limits and the spend reports. */
export function governanceOperations(deps: {
  db: Db;
  coord: Coord;
  clock: Clock;
  governance: Pick<Governance, 'stores'>;
  ring: SpendRing;
  allowPrivateWebhooks: boolean;
}): AdminOperation[] {
  const { caps, limits, reconciler } = deps.governance.stores;
  return [
    ...capOperations({
      caps,
      coord: deps.coord,
      clock: deps.clock,
      reconciler,
      allowPrivateWebhooks: deps.allowPrivateWebhooks,
    }),
    ...limitOperations({ limits }),
    ...spendOperations({ db: deps.db, coord: deps.coord, clock: deps.clock, ring: deps.ring, caps }),
  ];
}
