import type { ScimFilter } from './protocol/filter-ast.js';
import type { ResourceMatcher, ScimResource } from './protocol/filter-evaluate.js';
import { pushdownOf, type PushdownColumns, type SqlCondition } from './scim-filter-sql.js';

/** What a store offers a list: an SQL page, and its rows in creation order for filters SQL cannot answer. */
export interface ListSource<Record> {
  page(condition: SqlCondition | null, offset: number, limit: number): Promise<{ total: number; records: Record[] }>;
  /** Up to `limit` rows created after the row at `after` (null: from the first), with their position. */
  batchAfter(after: string | null, limit: number): Promise<Array<{ seq: string; record: Record }>>;
}

export interface ListRequest {
  filter: { tree: ScimFilter; matches: ResourceMatcher } | null;
  startIndex: number;
  count: number;
}

/** Rows read per query when a filter is evaluated in memory: one batch and one page are held at a time. */
export const scanBatchSize = 500;

/**
 * One page of a list (1-based `startIndex`) and the number of resources the filter matches. A filter the store can
 * answer (scim-filter-sql.ts) runs in SQL. Any other filter is evaluated here over every row, read in creation order
 * in batches, so `totalResults` and `startIndex` stay exact whatever the filter; the cost grows with the directory
 * (about 0.1 s per thousand users measured against Postgres; docs/adr/0020-scim-filter-parser.md). The batches are
 * separate reads: a write landing during the scan may or may not be seen, as with any paged SCIM list.
 */
export async function listResources<Record>(
  source: ListSource<Record>,
  request: ListRequest,
  options: { columns: PushdownColumns; coreSchema: string; render: (record: Record) => ScimResource },
): Promise<{ total: number; resources: ScimResource[] }> {
  const condition =
    request.filter === null ? null : pushdownOf(request.filter.tree, options.columns, options.coreSchema);
  if (request.filter === null || condition !== null) {
    const page = await source.page(condition, request.startIndex - 1, request.count);
    return { total: page.total, resources: page.records.map(options.render) };
  }
  const { matches } = request.filter;
  const resources: ScimResource[] = [];
  let total = 0;
  let after: string | null = null;
  for (;;) {
    const batch = await source.batchAfter(after, scanBatchSize);
    for (const { record } of batch) {
      const resource = options.render(record);
      if (!matches(resource)) continue;
      total += 1;
      if (total >= request.startIndex && resources.length < request.count) resources.push(resource);
    }
    const last = batch[batch.length - 1];
    if (batch.length < scanBatchSize || !last) break;
    after = last.seq;
  }
  return { total, resources };
}
