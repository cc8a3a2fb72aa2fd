import type { Registry } from 'prom-client';
import { Counter } from 'prom-client';
import { callGuardrailHook } from './guardrail-hook.client.js';
import type { GuardrailCall } from './guardrail.schema.js';
import type { GuardrailStore } from './guardrail.store.js';
import { runGuardrails, type GuardrailDenial } from './run-guardrails.js';

export interface GuardrailsDeps {
  store: GuardrailStore;
  /** The deployment content mode, read per call (an administrator may turn content off at any time). */
  contentMode: () => 'off' | 'full';
  allowPrivate: boolean;
  metrics: Registry;
}

/** The admission stage's guardrail step: the configured hooks, asked in order, off when none is configured. */
export class Guardrails {
  private readonly decisions: Counter<'hook' | 'outcome'>;

  constructor(private readonly deps: GuardrailsDeps) {
    this.decisions = new Counter({
      name: 'gw_guardrail_decisions_total',
      help: 'Guardrail hook outcomes by hook: allow, deny, failed_open, failed_closed',
      labelNames: ['hook', 'outcome'],
      registers: [deps.metrics],
    });
  }

  /** Synchronous and store-free: the common case (no hooks) costs nothing on the request path. */
  get configured(): boolean {
    return this.deps.store.hooks().length > 0;
  }

  check(call: Omit<GuardrailCall, 'body'>, body: unknown): Promise<GuardrailDenial | null> {
    return runGuardrails({
      hooks: this.deps.store.hooks(),
      call,
      body,
      contentAllowed: this.deps.contentMode() === 'full',
      bearerOf: (hook) => this.deps.store.bearerOf(hook),
      callHook: (target, sent) => callGuardrailHook(target, sent, { allowPrivate: this.deps.allowPrivate }),
      observe: (hook, outcome) => this.decisions.inc({ hook, outcome }),
    });
  }
}
