import { ownValue, type Clock, type Coord, type Db, type Keyring, type Lifecycle, type Logger } from '@gw/platform';
import type { GovernanceMetrics } from '../metering/governance-metrics.js';
import type { SpendRecorder } from '../metering/spend-recorder.js';
import { lookupModel } from '../providers/pricing/known-models.js';
import type { RoutingStore } from '../routing/routing.store.js';
import { CapAlerts } from './cap-alerts.js';
import { Governance, type AuthRejectionSink } from './governance.js';
import { LimitsStore } from './limits.store.js';
import { CounterReconciler } from './reconcile-counters.js';
import { Reservations } from './reservations.js';
import { UsageCounters } from './usage-counters.js';
import { UserCapStore } from './user-caps.store.js';
import { webhookSender, type WebhookSend } from './webhook-sender.js';

export interface ComposeGovernanceInput {
  db: Db;
  coord: Coord;
  clock: Clock;
  logger: Logger;
  lifecycle: Lifecycle;
  keyring: Keyring;
  spend: SpendRecorder;
  metrics: GovernanceMetrics;
  authEvents: AuthRejectionSink;
  routing: RoutingStore;
  /** `GW_ALLOW_PRIVATE_UPSTREAMS`: alert webhooks may point at private addresses (labs, tests). */
  allowPrivateWebhooks: boolean;
  /** `GW_STRICT_DEFAULT_OUTPUT_TOKENS`. */
  defaultOutputTokens?: number;
  /** Tests replace delivery or the reconciliation cadence. */
  send?: WebhookSend;
  reconcileIntervalMs?: number;
}

/** Build caps, limits, counters, alerts and reconciliation; subscribe to spend records; stop cleanly at shutdown. */
export async function composeGovernance(input: ComposeGovernanceInput): Promise<Governance> {
  const { db, coord, clock, logger, metrics } = input;
  const caps = new UserCapStore(db, coord, clock, logger, input.keyring);
  const limits = new LimitsStore(db, coord, clock, logger);
  await Promise.all([caps.start(), limits.start()]);
  const reconciler = new CounterReconciler({
    db,
    coord,
    clock,
    logger,
    caps,
    onCorrection: (count) => metrics.counterCorrections.inc(count),
    ...(input.reconcileIntervalMs ? { intervalMs: input.reconcileIntervalMs } : {}),
  });
  const governance = new Governance({
    coord,
    clock,
    logger,
    caps,
    limits,
    counters: new UsageCounters(coord),
    reservations: new Reservations(coord),
    alerts: new CapAlerts({
      coord,
      clock,
      logger,
      caps,
      metrics,
      send: input.send ?? webhookSender({ allowPrivate: input.allowPrivateWebhooks }),
    }),
    reconciler,
    metrics,
    authEvents: input.authEvents,
    ...(input.defaultOutputTokens === undefined ? {} : { defaultOutputTokens: input.defaultOutputTokens }),
    modelFacts: (model) => {
      const { aliases, models } = input.routing.documents;
      return lookupModel(ownValue(aliases, model)?.model ?? model, models);
    },
  });
  input.spend.onRecord(governance.listener);
  reconciler.start();
  input.lifecycle.onShutdown(async () => {
    reconciler.stop();
    await governance.idle();
    await Promise.all([caps.stop(), limits.stop()]);
  });
  return governance;
}
