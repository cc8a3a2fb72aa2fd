import type { LoadJob } from '../load/load-job.js';
import { CHAT_PATH, LOAD_MODEL, PACED_MODEL, chatBody } from './workload.js';
import type { Target } from './targets.js';

export type PhaseId = 'closed-json' | 'closed-sse' | 'open-json' | 'open-sse' | 'serial-json' | 'serial-sse';

export interface Phase {
  id: PhaseId;
  kind: LoadJob['kind'];
  stream: boolean;
}

/** In the order they run inside a round; every target goes through one phase before the next phase starts. */
export const PHASES: readonly Phase[] = [
  { id: 'closed-json', kind: 'closed', stream: false },
  { id: 'closed-sse', kind: 'closed', stream: true },
  { id: 'open-json', kind: 'open', stream: false },
  { id: 'open-sse', kind: 'open', stream: true },
  { id: 'serial-json', kind: 'serial', stream: false },
  { id: 'serial-sse', kind: 'serial', stream: true },
];

export interface PhaseLimits {
  /** Length of a closed- or open-loop phase. */
  phaseMs: number;
  /** Cap on requests in any one phase (bounds memory and, in tiny runs, time). */
  maxRequests: number;
  /** Requests in a one-at-a-time phase. */
  serialRequests: number;
  connections: number;
  rate: number;
}

// Body strings built once per run and shared by every target.
const BODIES = {
  json: chatBody(LOAD_MODEL, false),
  sse: chatBody(LOAD_MODEL, true),
  pacedSse: chatBody(PACED_MODEL, true),
};

export function jobFor(phase: Phase, target: Target, limits: PhaseLimits): LoadJob {
  const serial = phase.kind === 'serial';
  // One-at-a-time streams ask for the paced model (see workload.ts); everything else for the instant one.
  const body = phase.stream ? (serial ? BODIES.pacedSse : BODIES.sse) : BODIES.json;
  return {
    kind: phase.kind,
    origin: target.origin,
    path: CHAT_PATH,
    headers: target.headers,
    body,
    stream: phase.stream,
    connections: serial ? 1 : limits.connections,
    rate: limits.rate,
    // A one-at-a-time phase is bounded by count; its time limit only guards against a stalled target.
    durationMs: serial ? Math.max(limits.phaseMs * 4, 10_000) : limits.phaseMs,
    maxRequests: serial ? limits.serialRequests : limits.maxRequests,
  };
}
