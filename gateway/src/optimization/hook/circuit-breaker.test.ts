import { describe, expect, it } from 'vitest';
import { CircuitBreaker, type CircuitState } from './circuit-breaker.js';

/** A step: advance the clock, then either acquire (expecting allowed or not) or report an outcome; then the state. */
type Step = { advanceMs?: number } & ({ acquire: boolean } | { report: 'success' | 'failure' }) & {
    state: CircuitState;
  };

function run(steps: readonly Step[]) {
  let now = 1_000_000;
  const breaker = new CircuitBreaker({ failureThreshold: 3, coolOffMs: 10_000, now: () => now });
  steps.forEach((step, index) => {
    now += step.advanceMs ?? 0;
    if ('acquire' in step) expect(breaker.tryAcquire(), `step ${index} acquire`).toBe(step.acquire);
    else if (step.report === 'success') breaker.succeeded();
    else breaker.failed();
    expect(breaker.state, `step ${index} state`).toBe(step.state);
  });
  return breaker;
}

const fail: Step = { report: 'failure', state: 'closed' };

describe('the optimizer circuit breaker', () => {
  const cases: Array<[name: string, steps: Step[]]> = [
    ['stays closed below the threshold', [fail, fail, { acquire: true, state: 'closed' }]],
    [
      'a success resets the count of failures in a row',
      [fail, fail, { report: 'success', state: 'closed' }, fail, fail, { acquire: true, state: 'closed' }],
    ],
    [
      'opens after the threshold of failures in a row, and skips calls',
      [
        fail,
        fail,
        { report: 'failure', state: 'open' },
        { acquire: false, state: 'open' },
        { advanceMs: 9_999, acquire: false, state: 'open' },
      ],
    ],
    [
      'lets one probe through after the cool-off, skipping the others meanwhile',
      [
        fail,
        fail,
        { report: 'failure', state: 'open' },
        { advanceMs: 10_000, acquire: true, state: 'half_open' },
        { acquire: false, state: 'half_open' },
        { acquire: false, state: 'half_open' },
      ],
    ],
    [
      'closes on a successful probe',
      [
        fail,
        fail,
        { report: 'failure', state: 'open' },
        { advanceMs: 10_000, acquire: true, state: 'half_open' },
        { report: 'success', state: 'closed' },
        { acquire: true, state: 'closed' },
      ],
    ],
    [
      'reopens on a failed probe for a whole new cool-off',
      [
        fail,
        fail,
        { report: 'failure', state: 'open' },
        { advanceMs: 10_000, acquire: true, state: 'half_open' },
        { advanceMs: 500, report: 'failure', state: 'open' },
        { advanceMs: 9_999, acquire: false, state: 'open' },
        { advanceMs: 1, acquire: true, state: 'half_open' },
      ],
    ],
    [
      'a call started before the circuit opened that fails late does not push the cool-off back',
      [
        fail,
        fail,
        { report: 'failure', state: 'open' },
        { advanceMs: 5_000, report: 'failure', state: 'open' },
        { advanceMs: 5_000, acquire: true, state: 'half_open' },
      ],
    ],
  ];

  it.each(cases)('%s', (_name, steps) => {
    run(steps);
  });

  it('counts skipped calls and reports when the next probe goes', () => {
    const breaker = run([
      fail,
      fail,
      { report: 'failure', state: 'open' },
      { acquire: false, state: 'open' },
      { acquire: false, state: 'open' },
    ]);
    expect(breaker.snapshot()).toEqual({
      state: 'open',
      consecutiveFailures: 3,
      openedAt: new Date(1_000_000).toISOString(),
      probeAt: new Date(1_010_000).toISOString(),
      skipped: 2,
    });
  });

  it('tells listeners each state change once', () => {
    let now = 0;
    const breaker = new CircuitBreaker({ failureThreshold: 1, coolOffMs: 100, now: () => now });
    const seen: CircuitState[] = [];
    breaker.onChange((state) => seen.push(state));
    breaker.failed();
    now = 100;
    breaker.tryAcquire();
    breaker.tryAcquire();
    breaker.succeeded();
    breaker.succeeded();
    expect(seen).toEqual(['open', 'half_open', 'closed']);
  });
});
