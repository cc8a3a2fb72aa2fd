import { rendezvousPick } from './rendezvous.js';
import type { GroupNode, RoutingNode, TargetNode } from './routing-config.js';

/** The outcome of one upstream try. `status` null means the provider could not be reached or dropped the connection. */
export interface Attempt<Result> {
  status: number | null;
  retryAfterMs: number | null;
  result: Result;
  /** Release what this try holds (an unread response body) when another try replaces it. */
  discard(): Promise<void>;
}

export interface PlanContext {
  /** Sticky key of the conversation, or null to spread per request. */
  conversationKey: string | null;
  random: () => number;
  sleep: (milliseconds: number) => Promise<void>;
  /** Longest wait between retries, whatever the provider's Retry-After says. */
  maxRetryWaitMs: number;
}

export interface Execution<Result> {
  attempt: Attempt<Result>;
  target: TargetNode;
  attempts: number;
}

const succeeded = (status: number | null) => status !== null && status < 400;
const baseBackoffMs = 250;

/** Jittered exponential backoff (full jitter between half and all of the step), capped. */
export function backoffMs(retryIndex: number, random: () => number, capMs: number): number {
  const step = Math.min(baseBackoffMs * 2 ** retryIndex, capMs);
  return Math.round(step / 2 + (random() * step) / 2);
}

/** A stable id per child, so rendezvous scores survive reordering and additions (duplicates get `#n`). */
function childIds(group: GroupNode): string[] {
  const seen = new Map<string, number>();
  return group.targets.map((child) => {
    const base =
      child.kind === 'target'
        ? `${child.provider}:${child.model ?? ''}`
        : `group:${child.mode}:${child.targets.map((inner) => (inner.kind === 'target' ? inner.provider : 'group')).join(',')}`;
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    return count === 0 ? base : `${base}#${count}`;
  });
}

function pickWeighted(group: GroupNode, context: PlanContext): RoutingNode {
  const ids = childIds(group);
  const candidates = group.targets.map((node, index) => ({ id: ids[index], weight: node.weight, node }));
  if (context.conversationKey) return (rendezvousPick(context.conversationKey, candidates) ?? candidates[0]).node;
  const total = candidates.reduce((sum, candidate) => sum + Math.max(candidate.weight, 0), 0);
  let point = context.random() * total;
  for (const candidate of candidates) {
    point -= Math.max(candidate.weight, 0);
    if (point < 0) return candidate.node;
  }
  return candidates.at(-1)!.node;
}

/**
 * Run a routing tree: a target retries on its own status codes (Retry-After honoured, capped;
 * jittered exponential backoff otherwise); `fallback` moves to the next target on its `onStatusCodes` or a network
 * failure; `loadbalance` picks one child by weight, sticky per conversation. Only a final answer is relayed, so a
 * streamed response is never replayed once bytes have reached the client.
 */
export async function executePlan<Result>(
  root: RoutingNode,
  run: (target: TargetNode) => Promise<Attempt<Result>>,
  context: PlanContext,
): Promise<Execution<Result>> {
  let attempts = 0;

  const runTarget = async (target: TargetNode): Promise<Execution<Result>> => {
    for (let retry = 0; ; retry += 1) {
      const attempt = await run(target);
      attempts += 1;
      const retryable = attempt.status === null || target.retry.onStatusCodes.includes(attempt.status);
      if (succeeded(attempt.status) || !retryable || retry >= target.retry.attempts)
        return { attempt, target, attempts };
      const hinted = target.retry.useRetryAfter ? attempt.retryAfterMs : null;
      const wait = Math.min(hinted ?? backoffMs(retry, context.random, context.maxRetryWaitMs), context.maxRetryWaitMs);
      await attempt.discard();
      await context.sleep(wait);
    }
  };

  const runNode = async (node: RoutingNode): Promise<Execution<Result>> => {
    if (node.kind === 'target') return runTarget(node);
    if (node.mode === 'loadbalance') return runNode(pickWeighted(node, context));
    let last: Execution<Result> | undefined;
    for (const [index, child] of node.targets.entries()) {
      last = await runNode(child);
      const status = last.attempt.status;
      const advance = status === null || node.onStatusCodes.includes(status);
      if (succeeded(status) || !advance || index === node.targets.length - 1) return last;
      await last.attempt.discard();
    }
    return last as Execution<Result>;
  };

  const execution = await runNode(root);
  return { ...execution, attempts };
}
