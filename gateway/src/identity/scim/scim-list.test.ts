import { describe, expect, it } from 'vitest';
import { userCoreSchema, userResourceSchema } from './protocol/attribute-schema.js';
import { compileFilter } from './protocol/filter-evaluate.js';
import { parseScimFilter } from './protocol/filter.js';
import type { SqlCondition } from './scim-filter-sql.js';
import { listResources, scanBatchSize, type ListSource } from './scim-list.js';

interface Row {
  seq: number;
  userName: string;
}

/** A store of `size` users, recording which of its two reads a list used. */
function memorySource(size: number) {
  const rows: Row[] = Array.from({ length: size }, (_, index) => ({
    seq: index + 1,
    userName: `user${index + 1}@example.com`,
  }));
  const calls = { pages: [] as Array<SqlCondition | null>, batches: 0 };
  const source: ListSource<Row> = {
    async page(condition, offset, limit) {
      calls.pages.push(condition);
      return { total: rows.length, records: rows.slice(offset, offset + limit) };
    },
    async batchAfter(after, limit) {
      calls.batches += 1;
      return rows
        .filter((row) => row.seq > Number(after ?? 0))
        .slice(0, limit)
        .map((record) => ({ seq: String(record.seq), record }));
    },
  };
  return { source, calls };
}

const columns = {
  username: { type: 'string' as const, sql: (parameter: string) => `lower(u.user_name) = lower(${parameter})` },
};
const options = {
  columns,
  coreSchema: userCoreSchema,
  render: (row: Row) => ({ id: String(row.seq), userName: row.userName }),
};
const request = (filter: string | null, startIndex: number, count: number) => ({
  filter:
    filter === null
      ? null
      : { tree: parseScimFilter(filter), matches: compileFilter(parseScimFilter(filter), userResourceSchema) },
  startIndex,
  count,
});

describe('listResources', () => {
  it('evaluates a filter SQL cannot answer over every batch, so the total and the page are exact', async () => {
    const size = scanBatchSize * 2 + 37;
    const { source, calls } = memorySource(size);
    // userName ends with 0, 3 or 6: a match in every batch, and on both sides of each batch boundary.
    const filter = 'userName ew "0@example.com" or userName ew "3@example.com" or userName ew "6@example.com"';
    const expectedTotal = Array.from({ length: size }, (_, index) => (index + 1) % 10).filter((digit) =>
      [0, 3, 6].includes(digit),
    ).length;
    const page = await listResources(source, request(filter, 148, 5), options);
    expect(page.total).toBe(expectedTotal);
    expect(page.resources.map((resource) => resource.userName)).toEqual([
      'user493@example.com',
      'user496@example.com',
      'user500@example.com',
      'user503@example.com',
      'user506@example.com',
    ]);
    expect(calls).toEqual({ pages: [], batches: 3 });
  });

  it('reads one SQL page when the filter pushes down, and when there is none', async () => {
    const { source, calls } = memorySource(10);
    expect((await listResources(source, request('userName eq "user3@example.com"', 1, 10), options)).total).toBe(10);
    expect(calls.pages).toEqual([{ sql: 'lower(u.user_name) = lower($1)', params: ['user3@example.com'] }]);
    expect(
      (await listResources(source, request(null, 4, 2), options)).resources.map((resource) => resource.id),
    ).toEqual(['4', '5']);
    expect(calls.batches).toBe(0);
  });

  it('answers an empty page past the last match', async () => {
    const { source } = memorySource(scanBatchSize);
    const page = await listResources(source, request('userName sw "user1"', 1000, 10), options);
    expect(page.resources).toEqual([]);
    expect(page.total).toBe(111);
  });
});
