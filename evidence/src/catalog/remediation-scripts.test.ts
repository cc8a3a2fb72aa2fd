import { describe, expect, it } from 'vitest';
import { policyPack } from './policy-pack.js';
import { remediationScripts, scriptOf } from './remediation-scripts.js';

describe('the remediation script catalog', () => {
  it('maps every check that names a script to one script of its own platform, and names each script once', () => {
    for (const policy of policyPack.filter((entry) => entry.script !== undefined)) {
      expect(scriptOf(policy)?.platform, policy.name).toBe(policy.platform);
    }
    expect(new Set(remediationScripts.map((script) => script.name)).size).toBe(remediationScripts.length);
  });

  it('dispatches no PowerShell script, so Windows hosts stay monitor-only', () => {
    const dispatched = new Set(policyPack.map((policy) => policy.script));
    expect(
      remediationScripts
        .filter((script) => script.interpreter === 'powershell')
        .map((script) => dispatched.has(script.name)),
    ).toEqual([false]);
  });
});
