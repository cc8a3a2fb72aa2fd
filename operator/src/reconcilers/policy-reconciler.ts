import { crdApiVersion } from '@gw/contracts';
import { refOf, type KubeObject } from '../kube/kube-api.js';
import { ManagementError, type ManagementClient } from '../management/management-client.js';
import { conditionOf } from '../runtime/conditions.js';
import type { Reconciler, ReconcileResult } from '../runtime/controller.js';
import { conflictWinner } from './conflicts.js';
import { finalizer, type ReconcilerDeps } from './context.js';

/** A refusal that needs a change from a human (missing Secret, ...): reported as Stalled, not retried. */
export class PolicyRefusal extends Error {
  constructor(
    readonly reason: string,
    message: string,
  ) {
    super(message);
    this.name = 'PolicyRefusal';
  }
}

export interface ApplyResult {
  /** True when the gateway's state differed and was written. */
  wrote: boolean;
  /** Set when the write followed a rotated Secret rather than drift made through the admin API. */
  secretRotated?: boolean;
  message: string;
  /** Kind-specific status fields. */
  fields?: Record<string, unknown>;
  /**
   * Bookkeeping kept on the object's annotations (null removes one): which Secret version a write-only value was
   * last applied from, so a rotation re-applies it although the gateway never shows it back.
   */
  annotations?: Record<string, string | null>;
}

/** What differs per kind: which gateway record it claims, how it is applied and cleared. */
export interface PolicyHandler {
  kind: string;
  /** The gateway record the resource owns ("provider:openai"); null when it claims nothing exclusive. */
  claim(object: KubeObject): string | null;
  describeClaim(object: KubeObject): string;
  /** Makes the gateway match the spec: read, compare, write only what differs. */
  apply(object: KubeObject, client: ManagementClient): Promise<ApplyResult>;
  /** Revokes or clears what the resource applied (finalizer). */
  cleanup(object: KubeObject, client: ManagementClient): Promise<void>;
}

type PolicyObject = KubeObject & {
  spec: { gatewayRef: { name: string } };
  status?: { observedGeneration?: number; conditions?: never[] };
};

const gatewayNotReadyRetryMs = 10_000;

/**
 * The reconcile loop every policy kind shares: finalizer first, then the Gateway and its admin
 * client, conflict detection, apply with drift detection, status written only on change, Events on failures.
 */
export class PolicyReconciler implements Reconciler {
  readonly apiVersion = crdApiVersion;
  readonly kind: string;

  constructor(
    private readonly deps: ReconcilerDeps,
    private readonly handler: PolicyHandler,
    private readonly peers: () => readonly KubeObject[],
  ) {
    this.kind = handler.kind;
  }

  private gateway(object: PolicyObject): Promise<KubeObject | null> {
    return this.deps.api.get({
      apiVersion: crdApiVersion,
      kind: 'Gateway',
      name: object.spec.gatewayRef.name,
      ...(object.metadata.namespace === undefined ? {} : { namespace: object.metadata.namespace }),
    });
  }

  async reconcile(input: KubeObject): Promise<ReconcileResult> {
    const object = input as PolicyObject;
    const gateway = await this.gateway(object);
    if (object.metadata.deletionTimestamp) return this.finalize(object, gateway);
    const { status, events } = this.deps;
    if (gateway === null) {
      await status.write(object, {
        outcome: {
          kind: 'stalled',
          reason: 'GatewayNotFound',
          message: `Gateway "${object.spec.gatewayRef.name}" does not exist in this namespace`,
        },
      });
      return {};
    }
    const winner = conflictWinner(object, this.peers(), (candidate) => this.handler.claim(candidate));
    if (winner !== null) {
      const message = `${winner.kind} "${winner.metadata.name}" already ${this.handler.describeClaim(object)}; this resource is not applied until that one is deleted or changed`;
      if (await status.write(object, { outcome: { kind: 'stalled', reason: 'Conflict', message } }))
        await events.record(object, 'Warning', 'Conflict', message);
      return {};
    }
    const current = await this.ensureFinalizer(object);
    const client = await this.deps.clients.forGateway(gateway);
    if (client === null) {
      await status.write(current, {
        outcome: {
          kind: 'retrying',
          reason: 'GatewayNotReady',
          message: `Gateway "${gateway.metadata.name}" is not ready to take admin requests yet`,
        },
      });
      return { requeueAfterMs: gatewayNotReadyRetryMs };
    }
    return this.apply(current, client);
  }

  private async apply(object: PolicyObject, client: ManagementClient): Promise<ReconcileResult> {
    const { status, events } = this.deps;
    const synced = conditionOf(object.status?.conditions, 'Synced');
    const wasInSync = object.status?.observedGeneration === object.metadata.generation && synced?.status === 'True';
    try {
      const result = await this.handler.apply(object, client);
      if (result.secretRotated)
        await events.record(
          object,
          'Normal',
          'SecretRotated',
          `A referenced Secret changed and was re-applied: ${result.message}`,
        );
      else if (result.wrote && wasInSync)
        await events.record(
          object,
          'Normal',
          'DriftCorrected',
          `The gateway's state had drifted from the resource and was re-applied: ${result.message}`,
        );
      const annotated = await this.annotate(object, result.annotations);
      await status.write(annotated, {
        outcome: { kind: 'ready', reason: 'Applied', message: result.message },
        ...(result.fields ? { fields: result.fields } : {}),
      });
      return {};
    } catch (error) {
      return this.failed(object, error);
    }
  }

  /** Writes the handler's bookkeeping annotations when they differ (metadata only: no new generation). */
  private async annotate(object: PolicyObject, annotations: ApplyResult['annotations']): Promise<PolicyObject> {
    const current = object.metadata.annotations ?? {};
    const changed = Object.entries(annotations ?? {}).filter(([name, value]) => (current[name] ?? null) !== value);
    if (changed.length === 0) return object;
    return (await this.deps.api.mergePatch(refOf(object), {
      metadata: { annotations: Object.fromEntries(changed) },
    })) as PolicyObject;
  }

  private async failed(object: PolicyObject, error: unknown): Promise<ReconcileResult> {
    const { status, events } = this.deps;
    if (error instanceof PolicyRefusal) {
      if (await status.write(object, { outcome: { kind: 'stalled', reason: error.reason, message: error.message } }))
        await events.record(object, 'Warning', error.reason, error.message);
      return {};
    }
    if (error instanceof ManagementError && !error.retryable) {
      const message = `The gateway refused the change (${error.status} ${error.code}): ${error.message}`;
      if (await status.write(object, { outcome: { kind: 'stalled', reason: 'RejectedByGateway', message } }))
        await events.record(object, 'Warning', 'RejectedByGateway', message);
      return {};
    }
    const message = error instanceof Error ? error.message : String(error);
    await status.write(object, { outcome: { kind: 'retrying', reason: 'GatewayUnavailable', message } });
    await events.record(object, 'Warning', 'ApplyFailed', message);
    throw error;
  }

  private async ensureFinalizer(object: PolicyObject): Promise<PolicyObject> {
    const finalizers = object.metadata.finalizers ?? [];
    if (finalizers.includes(finalizer)) return object;
    const patched = await this.deps.api.mergePatch(refOf(object), {
      metadata: { resourceVersion: object.metadata.resourceVersion, finalizers: [...finalizers, finalizer] },
    });
    return patched as PolicyObject;
  }

  /** Clears the gateway state, then lets the deletion finish. A conflict loser never applied anything to clear. */
  private async finalize(object: PolicyObject, gateway: KubeObject | null): Promise<ReconcileResult> {
    const finalizers = object.metadata.finalizers ?? [];
    if (!finalizers.includes(finalizer)) return {};
    const loser = conflictWinner(object, this.peers(), (candidate) => this.handler.claim(candidate)) !== null;
    if (gateway !== null && !gateway.metadata.deletionTimestamp && !loser) {
      const client = await this.deps.clients.forGateway(gateway);
      if (client === null) return { requeueAfterMs: gatewayNotReadyRetryMs };
      try {
        await this.handler.cleanup(object, client);
      } catch (error) {
        return this.failed(object, error);
      }
    }
    await this.deps.api.mergePatch(refOf(object), {
      metadata: {
        resourceVersion: object.metadata.resourceVersion,
        finalizers: finalizers.filter((name) => name !== finalizer),
      },
    });
    return {};
  }
}
