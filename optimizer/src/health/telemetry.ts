import { isoInstant } from '@gw/platform';
import type { Decision } from '@gw/contracts';

type ClassCounters = {
  decisions: number;
  tokensSaved: number;
};

/**
 * Per-replica counters behind `/health` (callers) and the settings telemetry block `census`. They are
 * since-start counts for this replica, not fleet totals.
 */
export class Telemetry {
  gatewayCalls = 0;
  foreignCalls = 0;
  firstForeignAt: string | null = null;
  lastForeignAt: string | null = null;
  requests = 0;
  toolOutputTokens = 0;
  readonly classes = new Map<string, ClassCounters>();

  recordCaller(gatewayStamped: boolean, now: number): void {
    if (gatewayStamped) {
      this.gatewayCalls += 1;
      return;
    }
    this.foreignCalls += 1;
    const at = isoInstant(now);
    this.firstForeignAt ??= at;
    this.lastForeignAt = at;
  }

  recordOptimize(request: Record<string, unknown>, decisions: readonly Decision[]): void {
    this.requests += 1;
    this.toolOutputTokens += estimateToolOutputTokens(request);
    for (const decision of decisions) {
      const counters = this.classes.get(decision.kind) ?? { decisions: 0, tokensSaved: 0 };
      counters.decisions += 1;
      counters.tokensSaved += decision.estimatedTokensSaved;
      this.classes.set(decision.kind, counters);
    }
  }

  census(): { requests: number; toolOutputTokens: number; classes: Record<string, ClassCounters> } {
    return {
      requests: this.requests,
      toolOutputTokens: this.toolOutputTokens,
      classes: Object.fromEntries([...this.classes].sort(([a], [b]) => (a < b ? -1 : 1))),
    };
  }
}

/**
 * Tool-output volume seen, at about four characters a token: a census figure, deliberately cheaper than running the
 * tokenizer over every request a second time. Reads chat `tool` messages and Messages `tool_result` blocks.
 */
export function estimateToolOutputTokens(request: Record<string, unknown>): number {
  const messages = request.messages;
  if (!Array.isArray(messages)) return 0;
  let chars = 0;
  for (const message of messages as unknown[]) {
    if (!isRecord(message)) continue;
    if (message.role === 'tool') chars += contentChars(message.content);
    else if (Array.isArray(message.content)) {
      for (const block of message.content as unknown[])
        if (isRecord(block) && block.type === 'tool_result') chars += contentChars(block.content);
    }
  }
  return Math.round(chars / 4);
}

function contentChars(content: unknown): number {
  if (typeof content === 'string') return content.length;
  if (!Array.isArray(content)) return 0;
  let chars = 0;
  for (const part of content as unknown[])
    if (isRecord(part) && typeof part.text === 'string') chars += part.text.length;
  return chars;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}
