import { describe, expect, it } from 'vitest';
import { summarizeSessions, type ArmSummary } from './moments.js';
import { assessQualityParity } from './quality-parity.js';
import { baseShape, syntheticSessions, type ArmShape } from './synthetic-sessions.js';

const arm = (changes: Partial<ArmShape>, seed: number): ArmSummary =>
  summarizeSessions(syntheticSessions({ ...baseShape, ...changes, seed }));

/** Holdout at the base shape; treated with the given known effect; the configured share matches the arm sizes. */
function assess(
  treated: Partial<ArmShape>,
  holdout: Partial<ArmShape> = {},
  expectedHoldoutShare: number | null = 0.5,
) {
  return assessQualityParity({
    holdout: arm(holdout, 1),
    treated: arm(treated, 2),
    attributable: true,
    expectedHoldoutShare,
  });
}

describe('quality parity verdicts on synthetic arms with known effects', () => {
  it('finds parity between arms drawn from the same distributions', () => {
    const result = assess({});
    expect(result.verdict).toBe('parity');
    expect(result.proxies.turnsPerSession.verdict).toBe('parity');
    expect(result.proxies.outputTokensPerRequest.verdict).toBe('parity');
    expect(result.proxies.errorRate.verdict).toBe('parity');
    expect(result.proxies.latencyMs.verdict).toBe('display_only');
    for (const proxy of Object.values(result.proxies)) {
      expect(proxy.deltaCiLow).toBeLessThan(0);
      expect(proxy.deltaCiHigh).toBeGreaterThan(0);
    }
  });

  it('flags 30% more turns per session as a regression of the headline proxy', () => {
    const result = assess({ turns: 13 });
    expect(result.verdict).toBe('regression');
    expect(result.proxies.turnsPerSession).toMatchObject({ verdict: 'regression', direction: 'higher_is_worse' });
    expect(result.proxies.turnsPerSession.relativeDelta).toBeGreaterThan(0.2);
    expect(result.proxies.turnsPerSession.deltaCiLow).toBeGreaterThan(0);
  });

  it('keeps parity when an increase is real (interval above zero) but not above 10%', () => {
    const result = assessQualityParity({
      holdout: arm({ sessions: 4000 }, 1),
      treated: arm({ sessions: 4000, turns: 10.5 }, 2),
      attributable: true,
      expectedHoldoutShare: 0.5,
    });
    expect(result.proxies.turnsPerSession.deltaCiLow).toBeGreaterThan(0);
    expect(result.proxies.turnsPerSession.relativeDelta).toBeLessThan(0.1);
    expect(result.proxies.turnsPerSession.verdict).toBe('parity');
    expect(result.verdict).toBe('parity');
  });

  it('treats fewer turns and fewer errors as no harm (one-sided proxies)', () => {
    const result = assess({ turns: 7, errorRate: 0.005 });
    expect(result.proxies.turnsPerSession.deltaCiHigh).toBeLessThan(0);
    expect(result.proxies.errorRate.deltaCiHigh).toBeLessThan(0);
    expect(result.verdict).toBe('parity');
  });

  it.each([
    ['40% shorter', 240],
    ['40% longer', 560],
  ])('flags %s answers: output tokens per request is two-sided', (_label, outputTokens) => {
    const result = assess({ outputTokens });
    expect(result.proxies.outputTokensPerRequest).toMatchObject({ verdict: 'regression', direction: 'two_sided' });
    expect(result.verdict).toBe('regression');
  });

  it('flags an error rate rising from 3% to 9%', () => {
    const result = assess({ errorRate: 0.09 });
    expect(result.proxies.errorRate.verdict).toBe('regression');
    expect(result.proxies.errorRate.holdout).toBeCloseTo(0.03, 1);
    expect(result.proxies.errorRate.treated).toBeCloseTo(0.09, 1);
    expect(result.verdict).toBe('regression');
  });

  it('shows a tripled latency but never lets it drive a verdict', () => {
    const result = assess({ latencyMs: 4_500 });
    expect(result.proxies.latencyMs.verdict).toBe('display_only');
    expect(result.proxies.latencyMs.relativeDelta).toBeGreaterThan(1.5);
    expect(result.proxies.latencyMs.deltaCiLow).toBeGreaterThan(0);
    expect(result.verdict).toBe('parity');
  });

  it('answers insufficient below 30 sessions per arm, even with a large effect', () => {
    const result = assess({ sessions: 29, turns: 20 }, { sessions: 29 });
    expect(result.verdict).toBe('insufficient');
    expect(result.grossCostObjective.verdict).toBe('insufficient');
  });

  it('answers insufficient when a proxy has no estimate (no successful holdout call)', () => {
    const result = assess({}, { errorRate: 1 });
    expect(result.proxies.outputTokensPerRequest.verdict).toBe('insufficient');
    expect(result.proxies.errorRate.verdict).toBe('parity');
    expect(result.verdict).toBe('insufficient');
  });

  it('answers imbalanced when arm sizes fail the sample-ratio test against the configured fraction', () => {
    const holdout = arm({ sessions: 100 }, 1);
    const treated = arm({ sessions: 400 }, 2);
    const skewed = assessQualityParity({ holdout, treated, attributable: true, expectedHoldoutShare: 0.5 });
    expect(skewed.verdict).toBe('imbalanced');
    expect(skewed.sampleRatio).toMatchObject({ expectedHoldoutShare: 0.5, observedHoldoutShare: 0.2, mismatch: true });
    expect(skewed.grossCostObjective.verdict).toBe('target_not_proven');
    expect(assessQualityParity({ holdout, treated, attributable: true, expectedHoldoutShare: 0.2 }).verdict).toBe(
      'parity',
    );
  });

  it('answers holdout_off when no row is attributable', () => {
    const empty = summarizeSessions([]);
    const result = assessQualityParity({
      holdout: empty,
      treated: empty,
      attributable: false,
      expectedHoldoutShare: null,
    });
    expect(result.verdict).toBe('holdout_off');
    expect(result.grossCostObjective).toMatchObject({
      verdict: 'holdout_off',
      reductionPoint: null,
      reductionCiLow: null,
      objective: 0.3,
    });
  });
});

describe('gross cost objective', () => {
  it('meets the target with parity and a reduction whose 95% lower bound is at least 30%', () => {
    const result = assess({ costPerRequest: 0.01 });
    expect(result.verdict).toBe('parity');
    const cost = result.grossCostObjective;
    expect(cost.verdict).toBe('target_met');
    expect(cost.reductionPoint).toBeCloseTo(0.5, 1);
    expect(cost.reductionCiLow).toBeGreaterThanOrEqual(0.3);
    expect(cost.reductionCiHigh).toBeGreaterThan(cost.reductionPoint ?? 1);
    expect(cost.holdoutCostPerSession).toBeCloseTo(0.2 * 0.97, 1);
  });

  it('calls a point estimate above 30% with a lower bound below it target_not_proven', () => {
    const result = assess({ sessions: 40, costPerRequest: 0.0132 }, { sessions: 40 });
    expect(result.verdict).toBe('parity');
    const cost = result.grossCostObjective;
    expect(cost.reductionPoint).toBeGreaterThan(0.3);
    expect(cost.reductionCiLow).toBeLessThan(0.3);
    expect(cost.verdict).toBe('target_not_proven');
  });

  it('never meets the target without quality parity, however large the saving', () => {
    const result = assess({ costPerRequest: 0.005, turns: 14 });
    expect(result.verdict).toBe('regression');
    expect(result.grossCostObjective.reductionCiLow).toBeGreaterThan(0.3);
    expect(result.grossCostObjective.verdict).toBe('target_not_proven');
  });
});

describe('calibration', () => {
  it('rarely calls equal arms a regression: the false-alarm rate stays near the one-sided 2.5% per proxy', () => {
    const replications = 200;
    let alarms = 0;
    for (let index = 0; index < replications; index += 1) {
      const result = assessQualityParity({
        holdout: arm({}, 1_000 + index),
        treated: arm({}, 5_000 + index),
        attributable: true,
        expectedHoldoutShare: 0.5,
      });
      if (result.verdict !== 'parity') alarms += 1;
    }
    expect(alarms / replications).toBeLessThan(0.06);
  });

  it('detects a 30% turns regression in every replication at 300 sessions per arm', () => {
    for (let index = 0; index < 50; index += 1) {
      expect(
        assessQualityParity({
          holdout: arm({}, 9_000 + index),
          treated: arm({ turns: 13 }, 7_000 + index),
          attributable: true,
          expectedHoldoutShare: 0.5,
        }).verdict,
      ).toBe('regression');
    }
  });
});
