import { fileURLToPath } from 'node:url';
import { USAGE, parseOverheadOptions } from './cli-options.js';
import {
  OPTIMIZER_USAGE,
  formatReport as formatOptimizerReport,
  parseOptimizerOptions,
  runOptimizerBench,
} from './optimizer/index.js';
import { INSTRUCTIONS_USAGE, parseInstructionsOptions } from './instructions/options.js';
import { formatInstructionsReport, toInstructionsReport } from './instructions/report.js';
import { runInstructions } from './instructions/run-instructions.js';
import { terminateAll } from './overhead/child-process.js';
import { formatReport, toReport } from './overhead/report.js';
import { runOverhead } from './overhead/run-overhead.js';

// `npm run bench -- <overhead|instructions|optimizer> [options]`: tables on stdout, the JSON result as the last line,
// progress on stderr.
const [benchmark, ...rest] = process.argv.slice(2);
const usages: Record<string, string> = {
  overhead: USAGE,
  instructions: INSTRUCTIONS_USAGE,
  optimizer: OPTIMIZER_USAGE,
};
const progress = (line: string) => process.stderr.write(`bench: ${line}\n`);

if (benchmark === undefined || !(benchmark in usages) || rest.includes('--help')) {
  process.stderr.write(
    benchmark !== undefined && benchmark in usages ? (usages[benchmark] ?? '') : Object.values(usages).join('\n'),
  );
  process.exit(benchmark === undefined || benchmark in usages || benchmark === '--help' ? 0 : 2);
}

/** Interrupted: take every server and the load generator down too (a fresh Postgres schema may be left behind). */
function stopChildrenOnSignal(): void {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      terminateAll();
      process.exit(130);
    });
  }
}

async function overhead(): Promise<void> {
  stopChildrenOnSignal();
  const options = parseOverheadOptions(rest, process.env);
  const run = await runOverhead({ ...options, environment: process.env, progress });
  process.stdout.write(formatReport(toReport(run)));
}

async function instructions(): Promise<void> {
  stopChildrenOnSignal();
  const run = await runInstructions(parseInstructionsOptions(rest, process.env), progress);
  process.stdout.write(formatInstructionsReport(toInstructionsReport(run)));
}

async function optimizer(): Promise<void> {
  const options = parseOptimizerOptions(rest, fileURLToPath(new URL('../..', import.meta.url)));
  const run = await runOptimizerBench(options, { progress });
  process.stdout.write(formatOptimizerReport(run, options.perSession));
}

try {
  await (benchmark === 'optimizer' ? optimizer() : benchmark === 'instructions' ? instructions() : overhead());
} catch (error) {
  process.stderr.write(
    `bench ${benchmark} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exitCode = 1;
}
