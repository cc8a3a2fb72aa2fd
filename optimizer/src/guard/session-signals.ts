import { createHash } from 'node:crypto';
import { BoundedMap } from './bounded-map.js';

export type RegretSignal = 'retrieve' | 'tool_rerun' | 'retry_after_crop' | 'pruned_tool_call';

export interface Regret {
  readonly kind: string;
  /** When the regretted rewrite was first counted as a fire. */
  readonly firedAt: number;
  readonly signal: RegretSignal;
}

export interface KindFire {
  readonly kind: string;
  readonly firedAt: number;
}

/** What one optimize turn of a session leaves for the next turn to check against. */
export interface SessionMemory {
  readonly at: number;
  /** Entries in the conversation array of the request (new calls appear at or after this index next turn). */
  readonly messageCount: number;
  /** Tool-call signatures (name and arguments) whose result the model saw replaced with a marker. */
  readonly replaced: ReadonlyMap<string, readonly KindFire[]>;
  /** The request was cropped or downshifted: its fingerprint, to spot the same request retried. */
  readonly crop: {
    readonly fingerprint: string;
    readonly messageCount: number;
    readonly kinds: readonly KindFire[];
  } | null;
  /** Tools that pruning dropped from the declared list, by name (seam: no pruning strategy ships yet). */
  readonly pruned: ReadonlyMap<string, readonly KindFire[]>;
}

export interface ToolCallFact {
  readonly messageIndex: number;
  readonly name: string;
  readonly input: string | undefined;
}

/** The next turn, read lazily: most turns of most sessions need neither the calls nor the fingerprint. */
export interface TurnFacts {
  readonly messageCount: number;
  calls(): readonly ToolCallFact[];
  fingerprint(): string;
}

/**
 * Same call: same tool name and the same arguments, ignoring JSON layout outside strings. Hashed, because arguments
 * can carry whole files and thousands of sessions are remembered.
 */
export function callSignature(name: string, input: string | undefined): string {
  return createHash('sha256')
    .update(`${name}\u0000${compactJson(input ?? '')}`)
    .digest('base64url');
}

function compactJson(text: string): string {
  let out = '';
  let inString = false;
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index] ?? '';
    if (inString) {
      out += char;
      if (char === '\\') {
        out += text[index + 1] ?? '';
        index += 1;
      } else if (char === '"') inString = false;
    } else if (char === '"') {
      inString = true;
      out += char;
    } else if (char !== ' ' && char !== '\n' && char !== '\r' && char !== '\t') out += char;
  }
  return out;
}

/**
 * Per-session memory of the last optimize turn, and the regrets the next turn reveals: a replaced result's call
 * re-run with the same arguments, the cropped request sent again unchanged, a pruned tool called. Per replica and
 * bounded; a memory older than the guard window is ignored.
 */
export class SessionSignals {
  private readonly memories: BoundedMap<string, SessionMemory>;

  constructor(capacity = 20_000) {
    this.memories = new BoundedMap(capacity);
  }

  has(sessionKey: string): boolean {
    return this.memories.get(sessionKey) !== undefined;
  }

  detect(sessionKey: string, facts: TurnFacts, now: number, windowMs: number): Regret[] {
    const memory = this.memories.get(sessionKey);
    if (!memory || now - memory.at > windowMs) return [];
    const regrets: Regret[] = [];
    const crop = memory.crop;
    if (crop && facts.messageCount === crop.messageCount && facts.fingerprint() === crop.fingerprint) {
      for (const fire of crop.kinds) regrets.push({ ...fire, signal: 'retry_after_crop' });
    }
    // History shorter than last turn: the client compacted or forked; its calls are not "new".
    if (facts.messageCount <= memory.messageCount || (memory.replaced.size === 0 && memory.pruned.size === 0))
      return regrets;
    // One regret per distinct call: a model running the same command three times regretted the marker once.
    const seenCalls = new Set<string>();
    const seenTools = new Set<string>();
    for (const call of facts.calls()) {
      if (call.messageIndex < memory.messageCount) continue;
      const signature = callSignature(call.name, call.input);
      if (!seenCalls.has(signature)) {
        seenCalls.add(signature);
        for (const fire of memory.replaced.get(signature) ?? []) regrets.push({ ...fire, signal: 'tool_rerun' });
      }
      if (!seenTools.has(call.name)) {
        seenTools.add(call.name);
        for (const fire of memory.pruned.get(call.name) ?? []) regrets.push({ ...fire, signal: 'pruned_tool_call' });
      }
    }
    return regrets;
  }

  remember(sessionKey: string, memory: SessionMemory): void {
    this.memories.set(sessionKey, memory);
  }
}
