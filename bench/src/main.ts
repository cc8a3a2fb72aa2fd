import { USAGE, parseOverheadOptions } from './cli-options.js';
import { terminateAll } from './overhead/child-process.js';
import { formatReport, toReport } from './overhead/report.js';
import { runOverhead } from './overhead/run-overhead.js';

// `npm run bench -- overhead [options]`: tables on stdout, the JSON result as the last line, progress on stderr.
const [benchmark, ...rest] = process.argv.slice(2);

if (benchmark !== 'overhead' || rest.includes('--help')) {
  process.stderr.write(USAGE);
  process.exit(benchmark === undefined || benchmark === 'overhead' || benchmark === '--help' ? 0 : 2);
}

// Interrupted: take every server and the load generator down too (a fresh Postgres schema may be left behind).
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    terminateAll();
    process.exit(130);
  });
}

try {
  const options = parseOverheadOptions(rest, process.env);
  const run = await runOverhead({ ...options, environment: process.env, progress: (line) => process.stderr.write(`bench: ${line}\n`) });
  process.stdout.write(formatReport(toReport(run)));
} catch (error) {
  process.stderr.write(`bench overhead failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
}
