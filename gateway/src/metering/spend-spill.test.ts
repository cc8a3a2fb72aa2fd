import { appendFileSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLogger } from '@gw/platform';
import type { SpendRecord } from './spend-record.js';
import { SpendSpill } from './spend-spill.js';

const logger = createLogger({ name: 'spill-test', level: 'silent' });
const record = (id: string) => ({ id }) as unknown as SpendRecord;

describe('SpendSpill', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'gw-spill-unit-'));
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('replays every appended record in batches and deletes the file', async () => {
    const spill = new SpendSpill(dir, logger);
    expect(spill.append([record('a'), record('b'), record('c')])).toBe(true);
    expect(spill.hasPending).toBe(true);
    const batches: string[][] = [];
    expect(await spill.replay(async (batch) => void batches.push(batch.map((entry) => entry.id)), 2)).toBe(3);
    expect(batches).toEqual([['a', 'b'], ['c']]);
    expect(spill.hasPending).toBe(false);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('keeps the file when a batch fails, and skips a line cut short by a crash', async () => {
    const spill = new SpendSpill(dir, logger);
    spill.append([record('a')]);
    spill.close();
    const [file] = readdirSync(dir);
    appendFileSync(join(dir, file ?? ''), '{"id":"trunc');
    await expect(spill.replay(async () => Promise.reject(new Error('store down')), 10)).rejects.toThrow('store down');
    expect(readdirSync(dir)).toEqual([file]);

    const restarted = new SpendSpill(dir, logger);
    restarted.scan();
    expect(restarted.hasPending).toBe(true);
    const seen: string[] = [];
    expect(await restarted.replay(async (batch) => void seen.push(...batch.map((entry) => entry.id)), 10)).toBe(1);
    expect(seen).toEqual(['a']);
  });
});
