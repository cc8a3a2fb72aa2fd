import { RestartPolicy, type RestartPolicyOptions } from './restart-policy.js';

/** The part of a child process the supervisor uses (node's `ChildProcess` fits). */
export interface SupervisedChild {
  readonly pid?: number | undefined;
  readonly exitCode: number | null;
  readonly signalCode: NodeJS.Signals | null;
  kill(signal?: NodeJS.Signals): boolean;
  once(event: 'exit', listener: (code: number | null, signal: NodeJS.Signals | null) => void): unknown;
}

export interface SupervisedComponent {
  name: string;
  /**
   * Without it nothing serves: giving it up (a crash loop past the restart limit) stops the whole stack with exit code
   * 1. A component that is not essential (the optimizer: the gateway fails open without it) is left down instead.
   */
  essential: boolean;
}

export interface SupervisorOptions<Component extends SupervisedComponent> {
  components: readonly Component[];
  spawn: (component: Component) => SupervisedChild;
  /** One line per event (start, exit, restart, give-up, stop), for the operator's terminal. */
  log: (line: string) => void;
  now: () => number;
  schedule: (run: () => void, delayMs: number) => { cancel(): void };
  policy?: Partial<RestartPolicyOptions>;
  /** Called once when an essential component is given up; the stack has been stopped. */
  onFatal?: (component: Component) => void;
}

interface Running<Component> {
  component: Component;
  policy: RestartPolicy;
  child: SupervisedChild | null;
  startedAt: number;
  pendingRestart: { cancel(): void } | null;
}

/**
 * Keeps the stack up: each component runs as a child process and is restarted when it exits (exponential backoff, a
 * limit on restarts within a window, a log line each time). Only `stop()` (the supervisor's own signal) or giving up
 * an essential component stops the others.
 */
export class Supervisor<Component extends SupervisedComponent> {
  private readonly running: Array<Running<Component>>;
  private stopping = false;

  constructor(private readonly options: SupervisorOptions<Component>) {
    this.running = options.components.map((component) => ({
      component,
      policy: new RestartPolicy(options.policy),
      child: null,
      startedAt: 0,
      pendingRestart: null,
    }));
  }

  start(): void {
    for (const entry of this.running) this.launch(entry);
  }

  /** The live child of a component, if it is running. */
  childOf(name: string): SupervisedChild | null {
    return this.running.find((entry) => entry.component.name === name)?.child ?? null;
  }

  /** Stop restarting, send `signal` to every child, and resolve once all have exited. */
  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    this.stopping = true;
    const exits: Array<Promise<void>> = [];
    for (const entry of this.running) {
      entry.pendingRestart?.cancel();
      entry.pendingRestart = null;
      const child = entry.child;
      if (!child || child.exitCode !== null || child.signalCode !== null) continue;
      exits.push(new Promise((resolve) => child.once('exit', () => resolve())));
      child.kill(signal);
    }
    await Promise.all(exits);
  }

  private launch(entry: Running<Component>): void {
    const child = this.options.spawn(entry.component);
    entry.child = child;
    entry.startedAt = this.options.now();
    this.options.log(`supervisor: ${entry.component.name} started (pid ${child.pid ?? 'unknown'})`);
    child.once('exit', (code, signal) => this.exited(entry, child, code, signal));
  }

  private exited(
    entry: Running<Component>,
    child: SupervisedChild,
    code: number | null,
    signal: NodeJS.Signals | null,
  ): void {
    if (entry.child === child) entry.child = null;
    if (this.stopping) return;
    const name = entry.component.name;
    const how = signal ? `signal ${signal}` : `code ${code}`;
    const decision = entry.policy.onExit(entry.startedAt, this.options.now());
    if (decision.action === 'restart') {
      this.options.log(
        `supervisor: ${name} exited (${how}); restarting in ${decision.delayMs} ms (restart ${decision.restartsInWindow} in the current window)`,
      );
      entry.pendingRestart = this.options.schedule(() => {
        entry.pendingRestart = null;
        if (!this.stopping) this.launch(entry);
      }, decision.delayMs);
      return;
    }
    if (!entry.component.essential) {
      this.options.log(
        `supervisor: ${name} exited (${how}) after ${decision.restartsInWindow} restarts in the window; giving up on it, the rest of the stack keeps running`,
      );
      return;
    }
    this.options.log(
      `supervisor: ${name} exited (${how}) after ${decision.restartsInWindow} restarts in the window; it is essential, stopping the stack`,
    );
    void this.stop().then(() => this.options.onFatal?.(entry.component));
  }
}
