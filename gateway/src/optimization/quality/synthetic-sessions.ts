import type { SessionTotals } from './moments.js';

/** The shape of one synthetic arm: means of what each session does. Test support for the quality audit. */
export interface ArmShape {
  sessions: number;
  /** Mean turns per session; each session draws uniformly from half to one and a half times it. */
  turns: number;
  errorRate: number;
  outputTokens: number;
  latencyMs: number;
  costPerRequest: number;
  seed: number;
}

export const baseShape: Omit<ArmShape, 'seed'> = {
  sessions: 300,
  turns: 10,
  errorRate: 0.03,
  outputTokens: 400,
  latencyMs: 1_500,
  costPerRequest: 0.02,
};

/** mulberry32: a tiny seeded generator, so every synthetic arm is the same on every run. */
function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** Sessions of one arm with known means (each draw is uniform on [½, 1½] × the mean). */
export function syntheticSessions(shape: ArmShape): SessionTotals[] {
  const random = generator(shape.seed);
  const spread = (mean: number) => mean * (0.5 + random());
  const sessions: SessionTotals[] = [];
  for (let index = 0; index < shape.sessions; index += 1) {
    const session: SessionTotals = {
      requests: Math.max(1, Math.round(spread(shape.turns))),
      successes: 0,
      errors: 0,
      outputTokens: 0,
      latencyMs: 0,
      costUsd: 0,
    };
    for (let turn = 0; turn < session.requests; turn += 1) {
      if (random() < shape.errorRate) {
        session.errors += 1;
        continue;
      }
      session.successes += 1;
      session.outputTokens += Math.round(spread(shape.outputTokens));
      session.latencyMs += Math.round(spread(shape.latencyMs));
      session.costUsd += spread(shape.costPerRequest);
    }
    sessions.push(session);
  }
  return sessions;
}
