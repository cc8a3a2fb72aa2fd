import { describe, expect, it } from 'vitest';
import { assignHoldout, holdoutSession } from './assign-holdout.js';
import { holdoutKindsProblem } from './holdout-kinds.js';

const now = Date.UTC(2026, 0, 15, 12, 0, 0);
const holdout = { enabled: true, fraction: 0.3, windowSeconds: 3_600 };

describe('holdout assignment', () => {
  it('reads the session in source order: gatewaySessionId, then sessionId, then session', () => {
    expect(holdoutSession({ gatewaySessionId: 'g', sessionId: 's', session: 'x' })).toBe('g');
    expect(holdoutSession({ sessionId: 's', session: 'x' })).toBe('s');
    expect(holdoutSession({ session: 'x' })).toBe('x');
    expect(holdoutSession({ gatewaySessionId: '', sessionId: ' ', session: 'x' })).toBe('x');
    expect(holdoutSession(undefined)).toBeUndefined();
  });

  it('is a fixed function of tenant, principal, session and window', () => {
    // Fixed vectors: these arms must never move between releases, or running audits would mix arms.
    const arms = ['s1', 's2', 's3', 's4', 's5', 's6', 's7', 's8'].map(
      (session) => assignHoldout(holdout, { user: 'ada', sessionId: session }, now)?.cohort,
    );
    expect(arms).toEqual(['holdout', 'treated', 'treated', 'holdout', 'holdout', 'treated', 'holdout', 'treated']);
    expect(assignHoldout(holdout, { user: 'ada', sessionId: 's1' }, now + 1_000)).toEqual(
      assignHoldout(holdout, { user: 'ada', sessionId: 's1' }, now),
    );
    expect(assignHoldout(holdout, { user: 'ada', gatewaySessionId: 'g', sessionId: 's1' }, now)).toEqual(
      assignHoldout(holdout, { user: 'ada', gatewaySessionId: 'g' }, now),
    );
  });

  it('hashes within the user when there is one, else the team', () => {
    const draws = (metadata: Record<string, string>) =>
      Array.from(
        { length: 64 },
        (_, index) => assignHoldout(holdout, { ...metadata, session: `s${index}` }, now)?.cohort,
      );
    expect(draws({ user: 'ada', team: 'core' })).toEqual(draws({ user: 'ada' }));
    expect(draws({ user: 'ada' })).not.toEqual(draws({ team: 'core' }));
    expect(draws({ user: 'ada' })).not.toEqual(draws({ user: 'bob' }));
  });

  it('is absent when off or unattributable', () => {
    expect(assignHoldout({ ...holdout, enabled: false }, { user: 'ada', sessionId: 's' }, now)).toBeNull();
    expect(assignHoldout(undefined, { user: 'ada', sessionId: 's' }, now)).toBeNull();
    expect(assignHoldout(holdout, { sessionId: 's' }, now)).toBeNull();
    expect(assignHoldout(holdout, { user: 'ada' }, now)).toBeNull();
  });

  it('assigns about the configured fraction, all at 1 and none at 0', () => {
    const share = (fraction: number) => {
      let held = 0;
      for (let session = 0; session < 2_000; session += 1)
        if (
          assignHoldout({ ...holdout, fraction }, { team: 'core', session: `s${session}` }, now)?.cohort === 'holdout'
        )
          held += 1;
      return held / 2_000;
    };
    expect(share(0.3)).toBeGreaterThan(0.26);
    expect(share(0.3)).toBeLessThan(0.34);
    expect(share(1)).toBe(1);
    expect(share(0)).toBe(0);
  });

  it('withholds exactly one of the listed kinds on a per-strategy control row, spread over the kinds', () => {
    const kinds = ['elide_tool_output', 'log_fold', 'json_array_summary'];
    const seen = new Map<string, number>();
    for (let session = 0; session < 300; session += 1) {
      const assignment = assignHoldout(
        { ...holdout, fraction: 1, kinds },
        { user: 'ada', sessionId: `s${session}` },
        now,
      );
      expect(assignment?.cohort).toBe('holdout');
      const kind = assignment?.cohortKind ?? '';
      expect(kinds).toContain(kind);
      seen.set(kind, (seen.get(kind) ?? 0) + 1);
    }
    for (const kind of kinds) expect(seen.get(kind)).toBeGreaterThan(60);
  });
});

describe('holdout.kinds validation', () => {
  it('rejects read-only strategies and, given the strategy list, unknown kinds', () => {
    expect(holdoutKindsProblem(['census'], undefined)).toMatch(/census is read-only/);
    expect(holdoutKindsProblem(['audited_holdout'], undefined)).toMatch(/read-only/);
    expect(holdoutKindsProblem(['elide_tool_out'], ['elide_tool_output', 'log_fold'])).toMatch(
      /not a strategy this optimizer runs/,
    );
    expect(holdoutKindsProblem(['log_fold'], ['elide_tool_output', 'log_fold'])).toBeNull();
    expect(holdoutKindsProblem(undefined, ['log_fold'])).toBeNull();
  });
});
