import { describe, expect, it } from 'vitest';
import { scimBoolean } from './scim-boolean.js';

describe('scimBoolean', () => {
  it.each([
    [true, true],
    [false, false],
    // Entra ID without aadOptscim062020 sends "True"/"False".
    ['True', true],
    ['False', false],
    ['true', true],
    ['FALSE', false],
    ['tRuE', true],
  ])('reads %j as %j', (value, expected) => {
    expect(scimBoolean(value)).toBe(expected);
  });

  it.each([['yes'], ['1'], ['0'], [''], [' true'], [1], [0], [null], [undefined], [{}], [['true']]])(
    'does not guess at %j',
    (value) => {
      expect(scimBoolean(value)).toBeUndefined();
    },
  );
});
