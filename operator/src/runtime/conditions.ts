import type { Condition, ConditionType } from '@gw/contracts';

/**
 * What one reconcile concluded, mapped to kstatus conditions (Ready, Synced, Reconciling, Stalled) that Flux,
 * `kubectl wait` and our Argo CD health checks read. Reasons are CamelCase.
 */
export type Outcome =
  /** Applied and serving. */
  | { kind: 'ready'; reason?: string; message: string }
  /** Applied, waiting for something to become ready (rollout). */
  | { kind: 'progressing'; reason: string; message: string }
  /** A transient failure; the queue retries with backoff. */
  | { kind: 'retrying'; reason: string; message: string }
  /** Needs a change from a human (conflict, refused by the gateway, missing Secret): no retry until it changes. */
  | { kind: 'stalled'; reason: string; message: string };

interface Wanted {
  type: ConditionType;
  status: Condition['status'];
  reason: string;
  message: string;
}

function wantedConditions(outcome: Outcome): Wanted[] {
  const { message } = outcome;
  switch (outcome.kind) {
    case 'ready':
      return [
        { type: 'Ready', status: 'True', reason: outcome.reason ?? 'Reconciled', message },
        { type: 'Synced', status: 'True', reason: 'Applied', message: 'Applied to the gateway' },
        { type: 'Reconciling', status: 'False', reason: 'Reconciled', message: '' },
        { type: 'Stalled', status: 'False', reason: 'Reconciled', message: '' },
      ];
    case 'progressing':
      return [
        { type: 'Ready', status: 'False', reason: outcome.reason, message },
        { type: 'Synced', status: 'True', reason: 'Applied', message: 'Applied to the cluster' },
        { type: 'Reconciling', status: 'True', reason: outcome.reason, message },
        { type: 'Stalled', status: 'False', reason: outcome.reason, message: '' },
      ];
    case 'retrying':
      return [
        { type: 'Ready', status: 'False', reason: outcome.reason, message },
        { type: 'Synced', status: 'False', reason: outcome.reason, message },
        { type: 'Reconciling', status: 'True', reason: 'RetryingAfterError', message },
        { type: 'Stalled', status: 'False', reason: outcome.reason, message: '' },
      ];
    case 'stalled':
      return [
        { type: 'Ready', status: 'False', reason: outcome.reason, message },
        { type: 'Synced', status: 'False', reason: outcome.reason, message },
        { type: 'Reconciling', status: 'False', reason: outcome.reason, message: '' },
        { type: 'Stalled', status: 'True', reason: outcome.reason, message },
      ];
  }
}

/**
 * The conditions after this outcome. `lastTransitionTime` moves only when a condition's status changes, so a
 * repeated outcome yields identical conditions and the status writer skips the write.
 */
export function conditionsFor(
  outcome: Outcome,
  generation: number,
  existing: readonly Condition[] | undefined,
  now: Date,
): Condition[] {
  return wantedConditions(outcome).map((wanted) => {
    const previous = existing?.find((condition) => condition.type === wanted.type);
    const lastTransitionTime =
      previous && previous.status === wanted.status
        ? previous.lastTransitionTime
        : now.toISOString().replace(/\.\d{3}Z$/, 'Z');
    return { ...wanted, observedGeneration: generation, lastTransitionTime };
  });
}

export function conditionOf(conditions: readonly Condition[] | undefined, type: ConditionType): Condition | undefined {
  return conditions?.find((condition) => condition.type === type);
}
