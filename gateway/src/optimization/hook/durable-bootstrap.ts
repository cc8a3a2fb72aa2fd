import type { Logger } from '@gw/platform';
import type { OptimizerClient } from './optimizer-client.js';

export interface DurableBootstrapOptions {
  optimizer: Pick<OptimizerClient, 'raw'>;
  adminToken: string;
  /** The gateway's Postgres store: the optimizer keeps its durable stash and shared settings there too. */
  spendDbUrl: string;
  contentKey: string | undefined;
  contentMode: () => string;
  logger: Logger;
  /** How often the push repeats, so an optimizer that restarted (or a new replica) gets the store back. */
  intervalMs?: number;
}

export type DurableBootstrapState = 'pending' | 'durable' | 'not_durable' | 'failed';

/** Five minutes: the gateway's heartbeat. */
const defaultIntervalMs = 5 * 60_000;

/**
 * Pushes the durable configuration (store URL, content key, content mode) to the optimizer at boot and on every
 * heartbeat, so an optimizer deployed with no store of its own shares the gateway's. The body carries credentials: it
 * is never logged or audited, and a failure is logged by its kind only.
 */
export class DurableBootstrap {
  private timer: NodeJS.Timeout | null = null;
  private current: DurableBootstrapState = 'pending';

  constructor(private readonly options: DurableBootstrapOptions) {}

  state(): DurableBootstrapState {
    return this.current;
  }

  start(): void {
    void this.push();
    this.timer = setInterval(() => void this.push(), this.options.intervalMs ?? defaultIntervalMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** One push; resolves with the state it leaves (never throws). */
  async push(): Promise<DurableBootstrapState> {
    const { optimizer, adminToken, spendDbUrl, contentKey, contentMode, logger } = this.options;
    const body = {
      spendDbUrl,
      ...(contentKey ? { contentKey } : {}),
      contentMode: contentMode(),
      allowPlaintext: 'false',
    };
    try {
      const answer = await optimizer.raw('POST', '/admin/optimizer/bootstrap-durable', adminToken, body);
      const durable =
        answer.status === 200 &&
        typeof answer.body === 'object' &&
        answer.body !== null &&
        (answer.body as { durable?: unknown }).durable === true;
      const next: DurableBootstrapState = answer.status === 200 ? (durable ? 'durable' : 'not_durable') : 'failed';
      if (next !== this.current)
        logger[next === 'durable' ? 'info' : 'warn'](
          { status: answer.status, state: next },
          'optimizer durable bootstrap',
        );
      this.current = next;
    } catch (error) {
      if (this.current !== 'failed')
        logger.warn(
          { errName: error instanceof Error ? error.name : 'unknown' },
          'optimizer durable bootstrap: optimizer unreachable',
        );
      this.current = 'failed';
    }
    return this.current;
  }
}
