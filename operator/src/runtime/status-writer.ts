import { isDeepStrictEqual } from 'node:util';
import type { Condition } from '@gw/contracts';
import { refOf, type KubeApi, type KubeObject } from '../kube/kube-api.js';
import { conditionsFor, type Outcome } from './conditions.js';
import type { Timers } from './timers.js';

export interface StatusUpdate {
  outcome: Outcome;
  /** Kind-specific status fields (keyId, secretVersion, ...). */
  fields?: Record<string, unknown>;
}

interface WithStatus {
  status?: { conditions?: Condition[]; observedGeneration?: number; [field: string]: unknown };
}

/** Writes status only when it changes: an unchanged outcome costs no API call and no watch event. */
export class StatusWriter {
  /** Writes made and skipped, for the tests and the metrics. */
  written = 0;
  skipped = 0;

  constructor(
    private readonly api: KubeApi,
    private readonly timers: Timers,
  ) {}

  async write(object: KubeObject & WithStatus, update: StatusUpdate): Promise<boolean> {
    const generation = object.metadata.generation ?? 0;
    const current = object.status ?? {};
    const next = {
      ...current,
      ...update.fields,
      observedGeneration: generation,
      conditions: conditionsFor(update.outcome, generation, current.conditions, new Date(this.timers.now())),
    };
    if (isDeepStrictEqual(next, current)) {
      this.skipped += 1;
      return false;
    }
    await this.api.patchStatus(refOf(object), next);
    this.written += 1;
    return true;
  }
}
