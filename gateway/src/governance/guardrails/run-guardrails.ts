import type { GuardrailCall, GuardrailVerdict, StoredGuardrailHook } from './guardrail.schema.js';
import { GuardrailHookFailure, type HookTarget } from './guardrail-hook.client.js';

/** A guardrail's refusal, in the admission stage's terms. */
export interface GuardrailDenial {
  status: 400 | 403 | 503;
  code: 'guardrail_denied' | 'guardrail_unavailable';
  message: string;
  hint: string;
  hook: string;
}

export type GuardrailOutcome = 'allow' | 'deny' | 'failed_open' | 'failed_closed';

export interface RunGuardrailsInput {
  hooks: readonly StoredGuardrailHook[];
  call: Omit<GuardrailCall, 'body'>;
  body: unknown;
  /** The deployment's content mode: `full` lets a hook that asks for it see the body. */
  contentAllowed: boolean;
  bearerOf(hook: StoredGuardrailHook): string | null;
  callHook(target: HookTarget, call: GuardrailCall): Promise<GuardrailVerdict>;
  /** Told each hook's outcome (metrics). */
  observe?(hook: string, outcome: GuardrailOutcome): void;
}

/**
 * Ask every hook that applies, in the configured order; the first refusal wins. A hook that gives no verdict is
 * judged by its fail mode: open lets the call through, closed refuses it with a retryable 503.
 */
export async function runGuardrails(input: RunGuardrailsInput): Promise<GuardrailDenial | null> {
  for (const hook of input.hooks) {
    if (hook.endpoints && !hook.endpoints.includes(input.call.endpoint)) continue;
    const call: GuardrailCall =
      hook.sendContent && input.contentAllowed ? { ...input.call, body: input.body } : input.call;
    let verdict: GuardrailVerdict;
    try {
      verdict = await input.callHook({ url: hook.url, timeoutMs: hook.timeoutMs, bearer: input.bearerOf(hook) }, call);
    } catch (error) {
      const reason = error instanceof GuardrailHookFailure ? error.reason : 'unreachable';
      if (hook.failMode === 'open') {
        input.observe?.(hook.name, 'failed_open');
        continue;
      }
      input.observe?.(hook.name, 'failed_closed');
      return {
        status: 503,
        code: 'guardrail_unavailable',
        message: `The guardrail "${hook.name}" could not check this request (${reason}); it is configured to refuse calls it cannot check. Retry shortly.`,
        hint: `Guardrail hook "${hook.name}" failed (${reason}) and fails closed: check the hook service, or set its failMode to open.`,
        hook: hook.name,
      };
    }
    if (verdict.action === 'deny') {
      input.observe?.(hook.name, 'deny');
      return {
        status: verdict.status ?? 403,
        code: 'guardrail_denied',
        message: `Refused by the guardrail "${hook.name}"${verdict.reason ? `: ${verdict.reason}` : '.'}`,
        hint: `Guardrail hook "${hook.name}" refused the request.`,
        hook: hook.name,
      };
    }
    input.observe?.(hook.name, 'allow');
  }
  return null;
}
