import { describe, expect, it } from 'vitest';
import { answersFor } from './answers-for.js';

describe('answersFor', () => {
  const answer = answersFor({
    'FROM alf': true,
    'FROM screenlock': false,
    'FROM screenlock WHERE grace_period': true,
    'FROM disk_encryption': { error: 'no such table: disk_encryption' },
    'SELECT 1 FROM alf WHERE global_state = 0;': false,
  });

  it('gives one row for a passing policy and none for a failing one, matching fragments case-insensitively', () => {
    expect(answer('SELECT 1 FROM alf WHERE global_state >= 1;')).toEqual([{ '1': '1' }]);
    expect(answer('select 1 from ALF;')).toEqual([{ '1': '1' }]);
    expect(answer('SELECT 1 FROM screenlock WHERE enabled = 1;')).toEqual([]);
  });

  it('lets the longest key found in the query decide, so exact SQL beats a fragment of it', () => {
    expect(answer('SELECT 1 FROM alf WHERE global_state = 0;')).toEqual([]);
    expect(answer('SELECT 1 FROM screenlock WHERE grace_period <= 60;')).toEqual([{ '1': '1' }]);
  });

  it('reports a query error for an error answer, and `otherwise` for a query no key matches', () => {
    expect(answer('SELECT 1 FROM disk_encryption;')).toEqual({ error: 'no such table: disk_encryption' });
    expect(answer('SELECT 1 FROM sip_config;')).toEqual([]);
    expect(answersFor({}, { error: 'no such table: sip_config' })('SELECT 1 FROM sip_config;')).toEqual({
      error: 'no such table: sip_config',
    });
  });

  it('answers fresh rows each time, so a caller may change them', () => {
    const rows = answer('SELECT 1 FROM alf;') as Array<Record<string, string>>;
    rows.push({ '2': '2' });
    expect(answer('SELECT 1 FROM alf;')).toEqual([{ '1': '1' }]);
  });
});
