import { describe, expect, it } from 'vitest';
import { expectedHoldoutShare, sampleRatioTest } from './sample-ratio.js';

describe('sample-ratio mismatch test', () => {
  it('computes the 1-df chi-square by hand: 450 vs 550 at 50% is χ² = 10, p = 0.0016, no alarm', () => {
    const result = sampleRatioTest(450, 550, 0.5);
    expect(result.chiSquare).toBeCloseTo(10, 12);
    expect(result.pValue).toBeCloseTo(0.001565402258002549, 12);
    expect(result.mismatch).toBe(false);
    expect(result.observedHoldoutShare).toBeCloseTo(0.45, 12);
  });

  it('raises the alarm below p = 0.001: 440 vs 560 at 50% is χ² = 14.4, p = 0.00015', () => {
    const result = sampleRatioTest(440, 560, 0.5);
    expect(result.chiSquare).toBeCloseTo(14.4, 12);
    expect(result.pValue).toBeCloseTo(0.00014780231033445398, 12);
    expect(result.mismatch).toBe(true);
  });

  it('tests against the configured share, not against half', () => {
    expect(sampleRatioTest(100, 900, 0.1).mismatch).toBe(false);
    expect(sampleRatioTest(100, 900, 0.2).mismatch).toBe(true);
  });

  it('does not test when the share is unknown or an expected count is below 5', () => {
    expect(sampleRatioTest(0, 900, null)).toMatchObject({ pValue: null, mismatch: false, expectedHoldoutShare: null });
    expect(sampleRatioTest(0, 40, 0.1)).toMatchObject({ pValue: null, mismatch: false });
    expect(sampleRatioTest(0, 0, 0.1)).toMatchObject({ observedHoldoutShare: null, mismatch: false });
  });
});

describe('expected holdout share from the holdout config', () => {
  it('is the fraction for the whole-optimizer arm', () => {
    expect(expectedHoldoutShare({ fraction: 0.1 }, null)).toBe(0.1);
  });

  it('is fraction/K against 1 − fraction treated for one of K per-strategy arms', () => {
    expect(expectedHoldoutShare({ fraction: 0.1, kinds: ['log_fold', 'json_minify'] }, 'log_fold')).toBeCloseTo(
      0.05 / 0.95,
      14,
    );
    expect(
      expectedHoldoutShare({ fraction: 0.2, kinds: ['log_fold', 'log_fold', 'json_minify'] }, 'log_fold'),
    ).toBeCloseTo(0.4 / 3 / (0.4 / 3 + 0.8), 14);
  });

  it('is unknown when the config cannot produce the requested arm', () => {
    expect(expectedHoldoutShare(null, null)).toBeNull();
    expect(expectedHoldoutShare({ fraction: 0.1, kinds: ['log_fold'] }, null)).toBeNull();
    expect(expectedHoldoutShare({ fraction: 0.1 }, 'log_fold')).toBeNull();
  });
});
