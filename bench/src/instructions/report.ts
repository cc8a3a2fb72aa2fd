import { TARGET_LABELS } from '../overhead/targets.js';
import { table, times } from '../text-table.js';
import type { Category } from './categories.js';
import type { CountedFormat, CountedTargetId, Format, InstructionsRun } from './run-instructions.js';

const FORMATS: readonly Format[] = ['json', 'sse'];
/** Functions below this many self instructions per request are left out of the result (noise, and bulk). */
const SMALLEST_FUNCTION = 50;

export interface PerRequest {
  total: number;
  mutator: number;
  gc: number;
  compiler: number;
}

export interface CountedSummary {
  requests: number;
  perRequest: PerRequest;
  /** Self instructions per request, largest first. */
  functions: Array<{ name: string; category: Category; perRequest: number }>;
}

/** The machine-readable result: the last line the benchmark prints. */
export interface InstructionsReport {
  benchmark: 'gateway-instructions';
  version: 1;
  options: InstructionsRun['options'];
  node: string;
  results: Partial<Record<CountedTargetId, Record<Format, CountedSummary>>>;
  /**
   * Per gateway and format, the functions whose self instructions per request exceed the bare proxy's, by how much,
   * largest first (from the whole profiles, then cut at 50 per request).
   */
  beyondBareProxy: Partial<Record<CountedTargetId, Record<Format, CountedSummary['functions']>>>;
  /** Each gateway ÷ the bare proxy, per format: the mutator (repeats) and the total (moves with collections). */
  ratios: Partial<Record<CountedTargetId, { mutator: Record<Format, number>; total: Record<Format, number> }>>;
  durationMs: number;
}

export function toInstructionsReport(run: InstructionsRun): InstructionsReport {
  const results: InstructionsReport['results'] = {};
  for (const [id, formats] of entries(run.results))
    results[id] = { json: summarise(formats.json), sse: summarise(formats.sse) };
  const bare = results['bare-proxy'];
  const bareRun = run.results['bare-proxy'];
  const beyondBareProxy: InstructionsReport['beyondBareProxy'] = {};
  for (const [id, formats] of entries(run.results)) {
    if (id === 'bare-proxy' || !bareRun) continue;
    beyondBareProxy[id] = { json: excess(formats.json, bareRun.json), sse: excess(formats.sse, bareRun.sse) };
  }
  const ratios: InstructionsReport['ratios'] = {};
  for (const [id, formats] of entries(results)) {
    if (id === 'bare-proxy' || !bare) continue;
    const ratio = (field: keyof PerRequest) =>
      ({
        json: formats.json.perRequest[field] / bare.json.perRequest[field],
        sse: formats.sse.perRequest[field] / bare.sse.perRequest[field],
      }) satisfies Record<Format, number>;
    ratios[id] = { mutator: ratio('mutator'), total: ratio('total') };
  }
  return {
    benchmark: 'gateway-instructions',
    version: 1,
    options: run.options,
    node: run.node,
    results,
    beyondBareProxy,
    ratios,
    durationMs: run.durationMs,
  };
}

function summarise(counted: CountedFormat): CountedSummary {
  const per = (instructions: number) => Math.round(instructions / counted.requests);
  const { byCategory } = counted.profile;
  return {
    requests: counted.requests,
    perRequest: {
      total: per(counted.profile.total),
      // The rest of the rounded total, so the three add up to it exactly.
      mutator: per(counted.profile.total) - per(byCategory.gc) - per(byCategory.compiler),
      gc: per(byCategory.gc),
      compiler: per(byCategory.compiler),
    },
    functions: counted.profile.functions
      .map((fn) => ({ name: fn.name, category: fn.category, perRequest: per(fn.instructions) }))
      .filter((fn) => fn.perRequest >= SMALLEST_FUNCTION),
  };
}

/** A table per request, the ratios, where each gateway spends more than the bare proxy, then the JSON line. */
export function formatInstructionsReport(report: InstructionsReport): string {
  const { options } = report;
  const lines = [
    `instructions per request (callgrind): ${options.requests} counted requests per format after ${options.warmupRequests} to warm up, ${options.connections} connections, Node ${report.node}`,
    '',
    table(
      ['target', 'JSON total', 'mutator', 'gc', 'compiler', 'SSE total', 'mutator', 'gc', 'compiler'],
      entries(report.results).map(([id, formats]) => [
        TARGET_LABELS[id],
        ...FORMATS.flatMap((format) => {
          const per = formats[format].perRequest;
          return [per.total, per.mutator, per.gc, per.compiler].map(thousands);
        }),
      ]),
    ),
    '',
  ];
  for (const [id, ratio] of entries(report.ratios)) {
    lines.push(
      `${TARGET_LABELS[id]} ÷ bare proxy: mutator JSON ${times(ratio.mutator.json)} SSE ${times(ratio.mutator.sse)}; total JSON ${times(ratio.total.json)} SSE ${times(ratio.total.sse)}`,
    );
  }
  if (Object.keys(report.ratios).length > 0) lines.push('');
  for (const [id, formats] of entries(report.results)) {
    if (id === 'bare-proxy' || options.top === 0) continue;
    const beyond = report.beyondBareProxy[id];
    for (const format of FORMATS) {
      const rows = beyond ? beyond[format] : formats[format].functions;
      lines.push(
        beyond
          ? `${TARGET_LABELS[id]}, ${format.toUpperCase()}: functions that cost more than in the bare proxy (self instructions per request)`
          : `${TARGET_LABELS[id]}, ${format.toUpperCase()}: functions by self instructions per request`,
        // Names are long and ragged, so they go last, after the right-aligned count.
        ...rows
          .slice(0, options.top)
          .map((fn) => `${thousands(fn.perRequest).padStart(12)}  ${fn.category.padEnd(8)}  ${fn.name}`),
        '',
      );
    }
  }
  lines.push(JSON.stringify(report));
  return `${lines.join('\n')}\n`;
}

/** Per function, the gateway's self cost per request minus the bare proxy's, largest first, from whole profiles. */
function excess(gateway: CountedFormat, bare: CountedFormat): CountedSummary['functions'] {
  const baseline = new Map(bare.profile.functions.map((fn) => [fn.name, fn.instructions / bare.requests]));
  return gateway.profile.functions
    .map((fn) => ({
      name: fn.name,
      category: fn.category,
      perRequest: Math.round(fn.instructions / gateway.requests - (baseline.get(fn.name) ?? 0)),
    }))
    .filter((fn) => fn.perRequest >= SMALLEST_FUNCTION)
    .sort((a, b) => b.perRequest - a.perRequest);
}

const entries = <Key extends string, Value>(record: Partial<Record<Key, Value>>) =>
  Object.entries(record) as Array<[Key, Value]>;
const thousands = (value: number) => value.toLocaleString('en-US');
