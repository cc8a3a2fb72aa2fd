import { describe, expect, it } from 'vitest';
import { addressMatcher } from './address-matcher.js';

describe('addressMatcher', () => {
  const matches = addressMatcher(['10.0.0.0/8', '192.0.2.7', 'fd00::/8']);

  it.each([
    ['10.1.2.3', true],
    ['192.0.2.7', true],
    ['192.0.2.8', false],
    ['fd12::1', true],
    ['2001:db8::1', false],
    ['not an address', false],
  ])('%s → %s', (address, expected) => {
    expect(matches(address)).toBe(expected);
  });

  it('matches nothing with no entries', () => {
    expect(addressMatcher([])('10.1.2.3')).toBe(false);
  });
});
