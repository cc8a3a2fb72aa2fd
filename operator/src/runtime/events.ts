import { createHash } from 'node:crypto';
import type { KubeApi, KubeObject } from '../kube/kube-api.js';
import type { Timers } from './timers.js';

export type EventType = 'Normal' | 'Warning';

/**
 * Kubernetes Events for what a human should see in `kubectl describe` (failures, drift corrected, keys minted).
 * A repeat of the same event bumps its count instead of adding another object, as kubectl's recorder does.
 */
export class EventRecorder {
  constructor(
    private readonly api: KubeApi,
    private readonly timers: Timers,
    private readonly component = 'gw-operator',
  ) {}

  async record(object: KubeObject, type: EventType, reason: string, message: string): Promise<void> {
    const namespace = object.metadata.namespace ?? 'default';
    const fingerprint = createHash('sha256')
      .update(`${object.metadata.uid ?? object.metadata.name}|${type}|${reason}|${message}`)
      .digest('hex')
      .slice(0, 12);
    const name = `${object.metadata.name}.${fingerprint}`.slice(0, 253);
    const now = new Date(this.timers.now()).toISOString().replace(/\.\d{3}Z$/, 'Z');
    const ref = { apiVersion: 'v1', kind: 'Event', namespace, name };
    const existing = await this.api.get(ref);
    if (existing) {
      await this.api.mergePatch(ref, { count: ((existing.count as number | undefined) ?? 1) + 1, lastTimestamp: now });
      return;
    }
    await this.api.create({
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name, namespace },
      involvedObject: {
        apiVersion: object.apiVersion,
        kind: object.kind,
        name: object.metadata.name,
        namespace,
        uid: object.metadata.uid,
        resourceVersion: object.metadata.resourceVersion,
      },
      type,
      reason,
      message: message.slice(0, 1024),
      count: 1,
      firstTimestamp: now,
      lastTimestamp: now,
      source: { component: this.component },
      reportingComponent: this.component,
    });
  }
}
