import { describe, expect, it } from 'vitest';
import { FakeKubeApi } from '../../test/support/fake-kube-api.js';
import { FakeTimers } from '../../test/support/fake-timers.js';
import { silentLogger } from '../../test/support/reconciler-fixture.js';
import { RecordingReconciler } from '../../test/support/recording-reconciler.js';
import type { KubeObject } from '../kube/kube-api.js';
import { Controller, type SecondaryWatch } from './controller.js';
import { OperatorMetrics } from './metrics.js';
import { InformerRegistry } from './shared-informers.js';

const namespace = 'team';

function secret(name: string, data: Record<string, string> = {}): KubeObject {
  return { apiVersion: 'v1', kind: 'Secret', metadata: { name, namespace }, data };
}

function setup() {
  const api = new FakeKubeApi();
  const timers = new FakeTimers();
  const informers = new InformerRegistry({ api, timers, logger: silentLogger });
  const metrics = new OperatorMetrics();
  const controller = (reconciler: RecordingReconciler, watches: SecondaryWatch[] = []) =>
    new Controller({
      informers,
      timers,
      logger: silentLogger,
      metrics,
      reconciler,
      namespace,
      resyncMs: 60_000,
      watches,
    });
  const watchesOf = (kind: string) => api.reads.filter((read) => read === `WATCH ${kind} ${namespace}`).length;
  return { api, informers, controller, watchesOf };
}

describe('shared informers', () => {
  it('opens one list and one watch for three controllers on one kind, and each controller reconciles every change', async () => {
    const { api, informers, controller, watchesOf } = setup();
    const reconcilers = [1, 2, 3].map(() => new RecordingReconciler('v1', 'Secret'));
    const controllers = reconcilers.map((reconciler) => controller(reconciler));
    await Promise.all(controllers.map((each) => each.start()));

    const created = await api.create(secret('openai-key'));
    await Promise.all(
      reconcilers.map((reconciler) =>
        reconciler.reconciled(`${namespace}/openai-key`, created?.metadata.resourceVersion),
      ),
    );

    expect(watchesOf('Secret')).toBe(1);
    expect(api.reads.filter((read) => read.startsWith('LIST Secret'))).toHaveLength(1);
    expect(api.openWatches()).toEqual([`Secret ${namespace}`]);
    expect(informers.size).toBe(1);
    await Promise.all(controllers.map((each) => each.stop()));
  });

  it('shares the watch between a controller of a kind and the secondary watches of other controllers', async () => {
    const { api, controller, watchesOf } = setup();
    const secrets = new RecordingReconciler('v1', 'Secret');
    const widgets = new RecordingReconciler('example.dev/v1', 'Widget');
    const widgetsOfSecret: SecondaryWatch = {
      apiVersion: 'v1',
      kind: 'Secret',
      map: (changed, primaries) =>
        primaries
          .filter((widget) => (widget.spec as { secretName: string }).secretName === changed.metadata.name)
          .map((widget) => `${namespace}/${widget.metadata.name}`),
    };
    await api.create({
      apiVersion: 'example.dev/v1',
      kind: 'Widget',
      metadata: { name: 'w', namespace },
      spec: { secretName: 'db' },
    });
    const controllers = [
      controller(secrets),
      controller(widgets, [widgetsOfSecret]),
      controller(new RecordingReconciler('example.dev/v1', 'Gadget'), [widgetsOfSecret]),
    ];
    await Promise.all(controllers.map((each) => each.start()));
    await widgets.reconciled(`${namespace}/w`);
    const reconcilesBefore = widgets.seen.length;

    await api.create(secret('db'));
    await secrets.reconciled(`${namespace}/db`);
    await widgets.until((reconciler) => reconciler.seen.length > reconcilesBefore);

    expect(watchesOf('Secret')).toBe(1);
    expect(api.openWatches()).toEqual([`Gadget ${namespace}`, `Secret ${namespace}`, `Widget ${namespace}`]);
    await Promise.all(controllers.map((each) => each.stop()));
  });

  it('hands a controller that starts later the objects already cached, without a second list or watch', async () => {
    const { api, controller, watchesOf } = setup();
    const first = controller(new RecordingReconciler('v1', 'Secret'));
    await first.start();
    await api.create(secret('already-there'));
    const late = new RecordingReconciler('v1', 'Secret');
    const second = controller(late);
    await second.start();

    await late.reconciled(`${namespace}/already-there`);
    expect(watchesOf('Secret')).toBe(1);
    expect(api.reads.filter((read) => read.startsWith('LIST Secret'))).toHaveLength(1);
    await Promise.all([first.stop(), second.stop()]);
  });

  it('keeps the watch open while one controller still runs and closes it when the last one stops', async () => {
    const { api, controller } = setup();
    const controllers = [
      controller(new RecordingReconciler('v1', 'Secret')),
      controller(new RecordingReconciler('v1', 'Secret')),
    ];
    await Promise.all(controllers.map((each) => each.start()));

    await controllers[0].stop();
    expect(api.openWatches()).toEqual([`Secret ${namespace}`]);
    await controllers[1].stop();
    expect(api.openWatches()).toEqual([]);
  });

  it('gives a controller that stopped nothing more, while the others keep reconciling', async () => {
    const { api, controller } = setup();
    const [stopping, staying] = [new RecordingReconciler('v1', 'Secret'), new RecordingReconciler('v1', 'Secret')];
    const controllers = [controller(stopping), controller(staying)];
    await Promise.all(controllers.map((each) => each.start()));
    await controllers[0].stop();

    await api.create(secret('after-stop'));
    await staying.reconciled(`${namespace}/after-stop`);
    expect(stopping.keys()).not.toContain(`${namespace}/after-stop`);
    await controllers[1].stop();
  });
});
