import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { Supervisor, type SupervisedChild, type SupervisedComponent } from './supervisor.js';

let nextPid = 100;

/** A child process stand-in: exits when told to, or when killed. */
class FakeChild extends EventEmitter implements SupervisedChild {
  readonly pid = nextPid++;
  exitCode: number | null = null;
  signalCode: NodeJS.Signals | null = null;
  readonly signals: NodeJS.Signals[] = [];

  kill(signal: NodeJS.Signals = 'SIGTERM'): boolean {
    this.signals.push(signal);
    this.exit(null, signal);
    return true;
  }

  exit(code: number | null, signal: NodeJS.Signals | null = null): void {
    this.exitCode = code;
    this.signalCode = signal;
    this.emit('exit', code, signal);
  }
}

function harness(components: SupervisedComponent[]) {
  let now = 0;
  const spawned = new Map<string, FakeChild[]>();
  const timers: Array<{ at: number; run: () => void; cancelled: boolean }> = [];
  const logs: string[] = [];
  const fatal: string[] = [];
  const supervisor = new Supervisor({
    components,
    spawn: (component) => {
      const child = new FakeChild();
      spawned.set(component.name, [...(spawned.get(component.name) ?? []), child]);
      return child;
    },
    log: (line) => logs.push(line),
    now: () => now,
    schedule: (run, delayMs) => {
      const timer = { at: now + delayMs, run, cancelled: false };
      timers.push(timer);
      return { cancel: () => (timer.cancelled = true) };
    },
    policy: { initialDelayMs: 500, maxDelayMs: 30_000, maxRestarts: 3, windowMs: 60_000, stableMs: 30_000 },
    onFatal: (component) => fatal.push(component.name),
  });
  return {
    supervisor,
    logs,
    fatal,
    children: (name: string) => spawned.get(name) ?? [],
    latest: (name: string) => (spawned.get(name) ?? []).at(-1) as FakeChild,
    /** Move the clock on and fire the timers due by then. */
    advance(milliseconds: number) {
      now += milliseconds;
      for (const timer of timers.filter((candidate) => !candidate.cancelled && candidate.at <= now)) {
        timer.cancelled = true;
        timer.run();
      }
    },
    pendingTimers: () => timers.filter((timer) => !timer.cancelled).length,
  };
}

const stack: SupervisedComponent[] = [
  { name: 'optimizer', essential: false },
  { name: 'gateway', essential: true },
];

describe('the supervisor', () => {
  it('restarts a component that exits after a backoff, with a log line, leaving the others running', () => {
    const run = harness(stack);
    run.supervisor.start();
    const gateway = run.latest('gateway');
    run.latest('optimizer').exit(null, 'SIGKILL');
    expect(run.logs.at(-1)).toBe(
      'supervisor: optimizer exited (signal SIGKILL); restarting in 500 ms (restart 1 in the current window)',
    );
    run.advance(499);
    expect(run.children('optimizer')).toHaveLength(1);
    run.advance(1);
    expect(run.children('optimizer')).toHaveLength(2);
    expect(run.logs.at(-1)).toMatch(/^supervisor: optimizer started \(pid \d+\)$/);
    expect(gateway.signals).toEqual([]);
    expect(run.supervisor.childOf('optimizer')).toBe(run.latest('optimizer'));
  });

  it('doubles the wait while a component keeps exiting, and leaves a non-essential one down past the limit', () => {
    const run = harness(stack);
    run.supervisor.start();
    for (const delay of [500, 1_000, 2_000]) {
      run.latest('optimizer').exit(1);
      expect(run.logs.at(-1)).toContain(`restarting in ${delay} ms`);
      run.advance(delay);
    }
    run.latest('optimizer').exit(1);
    expect(run.logs.at(-1)).toBe(
      'supervisor: optimizer exited (code 1) after 3 restarts in the window; giving up on it, the rest of the stack keeps running',
    );
    run.advance(60_000);
    expect(run.children('optimizer')).toHaveLength(4);
    expect(run.latest('gateway').signals).toEqual([]);
    expect(run.fatal).toEqual([]);
  });

  it('stops the stack when an essential component is past its limit', async () => {
    const run = harness(stack);
    run.supervisor.start();
    for (const delay of [500, 1_000, 2_000]) {
      run.latest('gateway').exit(1);
      run.advance(delay);
    }
    run.latest('gateway').exit(1);
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(run.logs.at(-1)).toContain(
      'gateway exited (code 1) after 3 restarts in the window; it is essential, stopping the stack',
    );
    expect(run.latest('optimizer').signals).toEqual(['SIGTERM']);
    expect(run.fatal).toEqual(['gateway']);
  });

  it('stops every child on its own signal and restarts none of them', async () => {
    const run = harness(stack);
    run.supervisor.start();
    run.latest('optimizer').exit(1);
    expect(run.pendingTimers()).toBe(1);
    await run.supervisor.stop('SIGTERM');
    expect(run.latest('gateway').signals).toEqual(['SIGTERM']);
    expect(run.pendingTimers()).toBe(0);
    run.advance(60_000);
    expect(run.children('optimizer')).toHaveLength(1);
    expect(run.children('gateway')).toHaveLength(1);
  });
});
