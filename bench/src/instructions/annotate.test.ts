import { describe, expect, it } from 'vitest';
import { parseAnnotation } from './annotate.js';

// Abridged from a real `callgrind_annotate --inclusive=no` run over a Node process (valgrind 3.19).
const SAMPLE = `--------------------------------------------------------------------------------
Profile data file 'bare-proxy.19876.out.1' (creator: callgrind-3.19.0)
--------------------------------------------------------------------------------
Events recorded:  Ir
Events shown:     Ir

--------------------------------------------------------------------------------
Ir                   
--------------------------------------------------------------------------------
178,446,968 (100.0%)  PROGRAM TOTALS

--------------------------------------------------------------------------------
Ir                   file:function
--------------------------------------------------------------------------------
24,300,012 (13.62%)  ???:v8::internal::JsonStringifier::Result v8::internal::JsonStringifier::Serialize_<false>(v8::internal::Handle<v8::internal::Object>, bool) [clone .isra.0] [/opt/node/bin/node]
 5,204,920 ( 2.92%)  ???:0x0000000028019140 [???]
   373,400 ( 0.21%)  ./string/../sysdeps/x86_64/multiarch/memmove-vec-unaligned-erms.S:__memmove_avx_unaligned_erms [/usr/lib/x86_64-linux-gnu/libc.so.6]
`;

describe('parseAnnotation', () => {
  it('reads the program total and each function with its self count, name and object', () => {
    const profile = parseAnnotation(SAMPLE);
    expect(profile.total).toBe(178_446_968);
    expect(profile.functions).toEqual([
      {
        instructions: 24_300_012,
        name: 'v8::internal::JsonStringifier::Result v8::internal::JsonStringifier::Serialize_<false>(v8::internal::Handle<v8::internal::Object>, bool) [clone .isra.0]',
        object: '/opt/node/bin/node',
      },
      { instructions: 5_204_920, name: '0x0000000028019140', object: '???' },
      {
        instructions: 373_400,
        name: '__memmove_avx_unaligned_erms',
        object: '/usr/lib/x86_64-linux-gnu/libc.so.6',
      },
    ]);
  });

  it('refuses output without a program total (not callgrind_annotate, or an empty dump)', () => {
    expect(() => parseAnnotation('Profile data file x\n')).toThrow(/PROGRAM TOTALS/);
  });
});
