import { describe, expect, it } from 'vitest';
import { addressOf, parsePerfMap } from './perf-map.js';

describe('parsePerfMap', () => {
  const map = parsePerfMap(
    [
      '1a27000 3f8 Builtin:DeoptimizationEntry_Eager',
      '28000040 254 JS:^requireBuiltin node:internal/bootstrap/realm:420:24',
      '28000300 100 JS:~old node:internal/a:1:1',
      // The same space again later: the code there was collected and the space reused.
      '28000300 80 JS:*fresh file:///srv/app.js:3:7',
      '28000400 100 JS:~long node:internal/b:1:1',
      "28000420 20 RegExp.> src: 'a+' flags: ''",
      'not a line',
      '',
    ].join('\n'),
  );

  it.each([
    [0x1a27000, 'Builtin:DeoptimizationEntry_Eager'],
    [0x1a273f7, 'Builtin:DeoptimizationEntry_Eager'],
    [0x28000100, 'JS:^requireBuiltin node:internal/bootstrap/realm:420:24'],
    [0x28000310, 'JS:*fresh file:///srv/app.js:3:7'],
    [0x28000410, 'JS:~long node:internal/b:1:1'],
    [0x28000430, "RegExp.> src: 'a+' flags: ''"],
    [0x28000450, 'JS:~long node:internal/b:1:1'],
  ])('names the code covering 0x%s', (address, name) => {
    expect(map.nameAt(address)).toBe(name);
  });

  it.each([0x1a273f8, 0x28000294, 0x28000500, 0x10])('names nothing at 0x%s, outside every entry', (address) => {
    expect(map.nameAt(address)).toBeUndefined();
  });
});

describe('addressOf', () => {
  it('reads callgrind names for code without a symbol and leaves symbols alone', () => {
    expect(addressOf('0x0000000028019140')).toBe(0x28019140);
    expect(addressOf('Builtins_LoadIC')).toBeNull();
    expect(addressOf('0xnot')).toBeNull();
  });
});
