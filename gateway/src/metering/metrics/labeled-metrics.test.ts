import { Counter, Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { LabeledCounter, LabeledHistogram } from './labeled-metrics.js';

const buckets = [0.01, 0.1, 1, 10];
const observations: Array<[Record<'endpoint' | 'model', string>, number]> = [
  [{ endpoint: '/v1/chat/completions', model: 'gpt-4o' }, 0.004],
  [{ endpoint: '/v1/chat/completions', model: 'gpt-4o' }, 0.1],
  [{ model: 'gpt-4o', endpoint: '/v1/chat/completions' }, 3.5],
  [{ endpoint: '/v1/messages', model: 'claude-sonnet-4-5' }, 42],
  [{ endpoint: '/v1/messages', model: 'say "hi"\\\n' }, 0.5],
];

/** The same observations through prom-client's own metrics and through ours, in separate registries. */
function observeBoth() {
  const reference = new Registry();
  const fast = new Registry();
  const referenceHistogram = new Histogram({
    name: 'test_seconds',
    help: 'Latency.',
    labelNames: ['endpoint', 'model'],
    buckets,
    registers: [reference],
  });
  const referenceCounter = new Counter({
    name: 'test_total',
    help: 'Calls.',
    labelNames: ['endpoint', 'model'],
    registers: [reference],
  });
  const histogram = new LabeledHistogram(fast, {
    name: 'test_seconds',
    help: 'Latency.',
    labelNames: ['endpoint', 'model'],
    buckets,
  });
  const counter = new LabeledCounter(fast, { name: 'test_total', help: 'Calls.', labelNames: ['endpoint', 'model'] });
  for (const [labels, value] of observations) {
    referenceHistogram.observe(labels, value);
    referenceCounter.inc(labels, value);
    // Half through a held series, half through the labelled call: both land in the same series.
    if (value < 1) histogram.series(labels).observe(value);
    else histogram.observe(labels, value);
    counter.inc(labels, value);
  }
  return { reference, fast, histogram, counter };
}

describe('LabeledHistogram and LabeledCounter', () => {
  it('scrape as exactly the text prom-client writes for the same observations (label order and escaping included)', async () => {
    const { reference, fast } = observeBoth();
    const text = await fast.metrics();
    expect(text).toBe(await reference.metrics());
    expect(text).toContain('test_seconds_bucket{le="0.1",endpoint="/v1/chat/completions",model="gpt-4o"} 2');
    expect(text).toContain('test_seconds_count{endpoint="/v1/chat/completions",model="gpt-4o"} 3');
  });

  it('give the same JSON view as prom-client (which adds an always-null exemplar we do not keep)', async () => {
    const { reference, fast } = observeBoth();
    const withoutExemplars = (await reference.getMetricsAsJSON()).map((metric) => ({
      ...metric,
      values: metric.values.map(({ exemplar: _exemplar, ...value }: Record<string, unknown>) => value),
    }));
    expect(await fast.getMetricsAsJSON()).toEqual(withoutExemplars);
  });

  it('drops non-finite observations and negative increments instead of throwing on the request path', async () => {
    const { fast, histogram, counter } = observeBoth();
    const labels = { endpoint: '/v1/messages', model: 'claude-sonnet-4-5' };
    histogram.observe(labels, Number.NaN);
    histogram.series(labels).observe(Number.POSITIVE_INFINITY);
    counter.inc(labels, -5);
    const text = await fast.metrics();
    expect(text).toContain('test_seconds_count{endpoint="/v1/messages",model="claude-sonnet-4-5"} 1');
    expect(text).toContain('test_total{endpoint="/v1/messages",model="claude-sonnet-4-5"} 42');
  });

  it('zeroes every series on reset, and a series held before the reset keeps counting into the scrape', async () => {
    const { fast, histogram } = observeBoth();
    const held = histogram.series({ endpoint: '/v1/messages', model: 'claude-sonnet-4-5' });
    fast.resetMetrics();
    expect(await fast.metrics()).toContain('test_seconds_count{endpoint="/v1/messages",model="claude-sonnet-4-5"} 0');
    held.observe(0.2);
    expect(await fast.metrics()).toContain('test_seconds_count{endpoint="/v1/messages",model="claude-sonnet-4-5"} 1');
  });

  it('scrape an unlabelled metric whose series is held from the start as prom-client does: zeros before any call', async () => {
    const reference = new Registry();
    const fast = new Registry();
    const referenceCounter = new Counter({ name: 'saved_total', help: 'Saved.', registers: [reference] });
    new Histogram({ name: 'wait_seconds', help: 'Wait.', buckets, registers: [reference] });
    const counter = new LabeledCounter(fast, { name: 'saved_total', help: 'Saved.', labelNames: [] }).series({});
    new LabeledHistogram(fast, { name: 'wait_seconds', help: 'Wait.', labelNames: [], buckets }).series({});
    expect(await fast.metrics()).toBe(await reference.metrics());
    referenceCounter.inc(2.5);
    counter.inc(2.5);
    expect(await fast.metrics()).toBe(await reference.metrics());
  });
});
