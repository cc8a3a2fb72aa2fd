import type { OrbitAgent } from './orbit-agent.js';

/**
 * How the simulated machine runs one script. `'timeout'`: it ran until orbit killed it at `script_execution_timeout`.
 * `'crash'`: the agent dies after fetching the script and never posts a result (the server's lease must expire).
 */
export type ScriptOutcome = { exitCode: number; output: string; runtimeSeconds?: number } | 'timeout' | 'crash';
export type ScriptRunner = (contents: string, executionId: string) => ScriptOutcome | Promise<ScriptOutcome>;

/** One pending execution as the host handled it. */
export interface ScriptRun {
  executionId: string;
  /** `skipped`: the server already had a result for it (orbit never runs those again). */
  outcome: 'exited' | 'timed_out' | 'crashed' | 'skipped';
  /** What the host posted (-1 for a timeout); for `skipped`, the server's; null when nothing was posted. */
  exitCode: number | null;
}

// Orbit cuts output to the last 4 × 10 000 bytes (UTF-8's maximum for 10 000 characters) before posting it.
const MAX_OUTPUT_BYTES = 40_000;
// Go's exec reports a process killed at its context deadline like this; orbit appends it to the output.
const KILLED_SUFFIX = '\nscript execution error: signal: killed';

/**
 * Orbit's script runner: fetch each pending execution in the order the server listed them, run it, post the result.
 * A crash ends the run, as the agent process is gone; the remaining executions wait for its next check-in.
 */
export async function runPendingScripts(
  orbit: OrbitAgent,
  executionIds: readonly string[],
  runScript: ScriptRunner,
  timeoutSeconds: number,
): Promise<ScriptRun[]> {
  const runs: ScriptRun[] = [];
  for (const executionId of executionIds) {
    const script = await orbit.requestScript(executionId);
    if (script.exit_code !== null) {
      runs.push({ executionId, outcome: 'skipped', exitCode: script.exit_code });
      continue;
    }
    const outcome = await runScript(script.script_contents, script.execution_id);
    if (outcome === 'crash') {
      runs.push({ executionId, outcome: 'crashed', exitCode: null });
      break;
    }
    const result =
      outcome === 'timeout'
        ? { exit_code: -1, output: KILLED_SUFFIX, runtime: timeoutSeconds }
        : {
            exit_code: outcome.exitCode,
            output: lastBytes(outcome.output),
            runtime: Math.floor(outcome.runtimeSeconds ?? 0),
          };
    // Orbit always reports the timeout it ran under; -1 with it set is how the server tells a kill at the deadline.
    await orbit.postScriptResult({ execution_id: script.execution_id, ...result, timeout: timeoutSeconds });
    runs.push({ executionId, outcome: outcome === 'timeout' ? 'timed_out' : 'exited', exitCode: result.exit_code });
  }
  return runs;
}

function lastBytes(output: string): string {
  const bytes = Buffer.from(output, 'utf8');
  // A cut through a multi-byte character decodes to U+FFFD, as Go's JSON encoder writes the invalid byte.
  return bytes.length <= MAX_OUTPUT_BYTES ? output : bytes.subarray(bytes.length - MAX_OUTPUT_BYTES).toString('utf8');
}
