import type { SpendRecord } from '../src/metering/spend-record.js';
import type { TestGateway } from './helpers.js';

/**
 * The first spend record matching `match`, from the recorder's ring when it is already there, otherwise the moment
 * the metering stage records it: a test waits on the record itself, never on a clock. Rejects after `timeoutMs`
 * (a safety net for a broken build, not a wait).
 */
export async function recordedSpend(
  gateway: Pick<TestGateway, 'deps'>,
  match: (record: SpendRecord) => boolean,
  timeoutMs = 10_000,
): Promise<SpendRecord> {
  const [record] = await recordedSpends(gateway, match, 1, timeoutMs);
  return record;
}

/**
 * The first `count` spend records matching `match`, counting those already in the recorder's ring, resolved the
 * moment the metering stage records the last of them. Rejects after `timeoutMs` (a safety net, not a wait).
 */
export function recordedSpends(
  gateway: Pick<TestGateway, 'deps'>,
  match: (record: SpendRecord) => boolean,
  count: number,
  timeoutMs = 10_000,
): Promise<SpendRecord[]> {
  const spend = gateway.deps.spend;
  const seen = spend.ring.snapshot().filter(match);
  if (seen.length >= count) return Promise.resolve(seen.slice(0, count));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      unsubscribe();
      reject(new Error(`expected ${count} matching spend records, ${seen.length} were recorded`));
    }, timeoutMs);
    const unsubscribe = spend.onRecord((record) => {
      if (!match(record)) return;
      seen.push(record);
      if (seen.length < count) return;
      clearTimeout(timer);
      unsubscribe();
      resolve(seen);
    });
  });
}

/** The stored `gw_spend` row of one response (by its trace id), once recorded and written; exactly one or it throws. */
export async function spendRowOf(
  gateway: Pick<TestGateway, 'deps'>,
  response: { headers: Record<string, unknown> },
): Promise<Record<string, unknown>> {
  const traceId = response.headers['x-gw-trace-id'];
  await recordedSpend(gateway, (record) => record.traceId === traceId);
  await gateway.deps.spendWriter.drain();
  const { rows } = await gateway.deps.db.query<Record<string, unknown>>('SELECT * FROM gw_spend WHERE trace_id = $1', [
    traceId,
  ]);
  if (rows.length !== 1 || !rows[0]) throw new Error(`expected one spend row for the response, found ${rows.length}`);
  return rows[0];
}
