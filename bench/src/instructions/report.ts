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
  /** Each gateway ÷ the bare proxy, per format: the mutator (repeats) and the total (moves with collections). */
  ratios: Partial<Record<CountedTargetId, { mutator: Record<Format, number>; total: Record<Format, number> }>>;
  durationMs: number;
}

export function toInstructionsReport(run: InstructionsRun): InstructionsReport {
  const results: InstructionsReport['results'] = {};
  for (const [id, formats] of entries(run.results))
    results[id] = { json: summarise(formats.json), sse: summarise(formats.sse) };
  const bare = results['bare-proxy'];
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
      mutator: per(byCategory.mutator),
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
  const bare = report.results['bare-proxy'];
  for (const [id, formats] of entries(report.results)) {
    if (id === 'bare-proxy' || options.top === 0) continue;
    for (const format of FORMATS) {
      const rows = bare ? excess(formats[format], bare[format]) : formats[format].functions;
      lines.push(
        bare
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

/** Per function, the gateway's self cost minus the bare proxy's, largest first. */
function excess(gateway: CountedSummary, bare: CountedSummary): CountedSummary['functions'] {
  const baseline = new Map(bare.functions.map((fn) => [fn.name, fn.perRequest]));
  return gateway.functions
    .map((fn) => ({ ...fn, perRequest: fn.perRequest - (baseline.get(fn.name) ?? 0) }))
    .filter((fn) => fn.perRequest > 0)
    .sort((a, b) => b.perRequest - a.perRequest);
}

const entries = <Key extends string, Value>(record: Partial<Record<Key, Value>>) =>
  Object.entries(record) as Array<[Key, Value]>;
const thousands = (value: number) => value.toLocaleString('en-US');
