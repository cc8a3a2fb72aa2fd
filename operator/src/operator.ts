import { crdApiVersion } from '@gw/contracts';
import type { Logger } from '@gw/platform';
import type { KubeApi, KubeObject } from './kube/kube-api.js';
import { HttpManagementClient } from './management/http-management-client.js';
import type { ReconcilerDeps } from './reconcilers/context.js';
import { KubeGatewayClients, type ManagementClientFactory } from './reconcilers/gateway-clients.js';
import { GatewayReconciler } from './reconcilers/gateway.reconciler.js';
import { policyControllers, secretWatch } from './reconcilers/registry.js';
import { Controller } from './runtime/controller.js';
import { EventRecorder } from './runtime/events.js';
import { LeaderElector } from './runtime/leader-election.js';
import type { OperatorMetrics } from './runtime/metrics.js';
import { InformerRegistry } from './runtime/shared-informers.js';
import { StatusWriter } from './runtime/status-writer.js';
import type { Timers } from './runtime/timers.js';

export interface OperatorOptions {
  api: KubeApi;
  timers: Timers;
  logger: Logger;
  metrics: OperatorMetrics;
  /** Empty: every namespace. */
  namespaces: string[];
  resyncMs: number;
  /** Lease timings default to client-go's (15 s lease, 10 s renew deadline, 2 s retry). */
  leaderElection: {
    namespace: string;
    name: string;
    identity: string;
    leaseDurationMs?: number;
    renewDeadlineMs?: number;
    retryPeriodMs?: number;
  } | null;
  clientFactory?: ManagementClientFactory;
}

const ownerGateway = (object: KubeObject): string[] =>
  (object.metadata.ownerReferences ?? [])
    .filter((owner) => owner.kind === 'Gateway' && owner.apiVersion === crdApiVersion)
    .map((owner) => `${object.metadata.namespace ?? ''}/${owner.name}`);

/** Every controller, started only while this replica leads (two replicas never both act). */
export class Operator {
  private controllers: Controller[] = [];
  private readonly elector: LeaderElector | null;
  private running = false;

  constructor(private readonly options: OperatorOptions) {
    this.elector = options.leaderElection
      ? new LeaderElector({
          api: options.api,
          timers: options.timers,
          logger: options.logger,
          ...options.leaderElection,
          onStartedLeading: () => void this.startControllers(),
          onStoppedLeading: () => void this.stopControllers(),
        })
      : null;
  }

  private build(): Controller[] {
    const { api, timers, logger, metrics, resyncMs } = this.options;
    const factory = this.options.clientFactory ?? ((baseUrl, bearer) => new HttpManagementClient({ baseUrl, bearer }));
    const deps: ReconcilerDeps = {
      api,
      timers,
      logger,
      events: new EventRecorder(api, timers),
      status: new StatusWriter(api, timers),
      clients: new KubeGatewayClients(api, factory),
    };
    // One registry per leadership term: every controller below shares one watch and one cache per kind and namespace.
    const informers = new InformerRegistry({ api, timers, logger });
    const scopes: (string | undefined)[] = this.options.namespaces.length === 0 ? [undefined] : this.options.namespaces;
    return scopes.flatMap((namespace) => {
      const scope = namespace === undefined ? {} : { namespace };
      const gateway = new Controller({
        informers,
        timers,
        logger,
        metrics,
        resyncMs,
        ...scope,
        reconciler: new GatewayReconciler(deps, factory),
        watches: [{ apiVersion: 'apps/v1', kind: 'Deployment', map: ownerGateway }, secretWatch],
      });
      return [gateway, ...policyControllers(deps, { informers, metrics, resyncMs, ...scope })];
    });
  }

  private async startControllers(): Promise<void> {
    if (this.running) return;
    this.running = true;
    this.options.metrics.leader.set(1);
    this.controllers = this.build();
    await Promise.all(this.controllers.map((controller) => controller.start()));
  }

  private async stopControllers(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    this.options.metrics.leader.set(0);
    const controllers = this.controllers;
    this.controllers = [];
    await Promise.all(controllers.map((controller) => controller.stop()));
  }

  async start(): Promise<void> {
    if (this.elector) this.elector.start();
    else await this.startControllers();
  }

  /** Graceful shutdown: stop working, then release the Lease so a standby takes over at once. */
  async stop(): Promise<void> {
    await this.stopControllers();
    await this.elector?.stop();
  }
}
