import { describe, expect, it } from 'vitest';
import { answeredPolicies } from './policy-results.js';

describe('answeredPolicies', () => {
  const asked = new Set(['macos-firewall', 'macos-screen-lock', 'macos-disk-encryption']);

  it('reads a row as pass, no row as fail and a failed query as unknown, and only for checks that were asked', () => {
    const answered = answeredPolicies(
      {
        node_key: 'k',
        queries: {
          gw_policy_macos_unknown: [],
          'gw_policy_macos-firewall': [{ '1': '1' }],
          'gw_policy_macos-screen-lock': [],
          'gw_policy_macos-disk-encryption': [],
          'gw_policy_linux-screen-lock': [{ '1': '1' }],
          pack_other: [{ a: 'b' }],
        },
        statuses: { 'gw_policy_macos-disk-encryption': 1 },
        messages: { 'gw_policy_macos-disk-encryption': 'no such table: disk_encryption' },
      },
      asked,
    );
    expect(answered).toEqual([
      { policyName: 'macos-firewall', passing: true },
      { policyName: 'macos-screen-lock', passing: false },
      { policyName: 'macos-disk-encryption', passing: null },
    ]);
  });

  it('takes a null row set as no rows', () => {
    expect(answeredPolicies({ node_key: 'k', queries: { 'gw_policy_macos-firewall': null } }, asked)).toEqual([
      { policyName: 'macos-firewall', passing: false },
    ]);
  });
});
