import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';

const here = import.meta.dirname;

/** A corpus excerpt (real tool output, see /work/shared/corpus/README.md). */
export function fixture(name: string): string {
  return readFileSync(join(here, name), 'utf8');
}

/**
 * Golden comparison: the expected output lives beside the input and is reviewed like code. `UPDATE_GOLDENS=1`
 * rewrites it after an intended change.
 */
export function expectGolden(name: string, actual: string): void {
  const path = join(here, 'golden', name);
  if (process.env.UPDATE_GOLDENS === '1' || !existsSync(path)) {
    if (process.env.CI) throw new Error(`golden ${name} is missing`);
    writeFileSync(path, actual);
  }
  expect(actual).toBe(readFileSync(path, 'utf8'));
}
