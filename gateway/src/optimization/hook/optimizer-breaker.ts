import { Counter, Gauge, type Registry } from 'prom-client';
import type { Clock, Logger } from '@gw/platform';
import { CircuitBreaker, circuitStates } from './circuit-breaker.js';

export interface OptimizerBreakerOptions {
  failureThreshold: number;
  coolOffMs: number;
  clock: Clock;
  logger: Logger;
  registry: Registry;
}

/**
 * The pre-call hook's circuit breaker, observable: a log line on every state change, and on `/metrics`
 * `gw_optimizer_circuit_state{state}` (1 for the current state, 0 for the others) and
 * `gw_optimizer_circuit_skipped_total` (calls forwarded without asking the optimizer because the circuit was open).
 */
export function createOptimizerBreaker(options: OptimizerBreakerOptions): CircuitBreaker {
  const { logger } = options;
  const breaker = new CircuitBreaker({
    failureThreshold: options.failureThreshold,
    coolOffMs: options.coolOffMs,
    now: () => options.clock.now(),
  });
  breaker.onChange((state) => {
    if (state === 'open')
      logger.warn(
        { circuit: state, coolOffMs: options.coolOffMs },
        'optimizer circuit open: calls skip the optimizer until a probe succeeds',
      );
    else
      logger.info(
        { circuit: state },
        state === 'closed'
          ? 'optimizer circuit closed: calls use the optimizer again'
          : 'optimizer circuit half-open: probing the optimizer',
      );
  });
  new Gauge({
    name: 'gw_optimizer_circuit_state',
    help: 'The optimizer circuit breaker state: 1 for the current state (closed, open, half_open), 0 for the others.',
    labelNames: ['state'],
    registers: [options.registry],
    collect() {
      for (const state of circuitStates) this.set({ state }, breaker.state === state ? 1 : 0);
    },
  });
  let reported = 0;
  new Counter({
    name: 'gw_optimizer_circuit_skipped_total',
    help: 'Calls forwarded without asking the optimizer because its circuit was open.',
    registers: [options.registry],
    collect() {
      const skipped = breaker.snapshot().skipped;
      this.inc(skipped - reported);
      reported = skipped;
    },
  });
  return breaker;
}
