import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';

export interface ProcessStats {
  /** User + system CPU time of the whole process (every thread), in microseconds. */
  cpuMicros: number;
  rssBytes: number;
}

let ticksPerSecond: number | undefined;

function clockTicks(): number {
  if (ticksPerSecond === undefined) {
    try {
      ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      ticksPerSecond = 100;
    }
  }
  return ticksPerSecond;
}

/** CPU and resident memory of a process from /proc (Linux): `stat` fields 14–15 (utime, stime) and `VmRSS`. */
export function readProcessStats(pid: number): ProcessStats {
  const fields = statFields(pid);
  const ticks = Number(fields[11]) + Number(fields[12]);
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const rssKb = Number(/^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1] ?? Number.NaN);
  return { cpuMicros: (ticks * 1_000_000) / clockTicks(), rssBytes: rssKb * 1024 };
}

/**
 * CPU of a server made of many processes, such as Postgres with a backend per connection: every process running
 * `command` (its `/proc/<pid>/comm`), plus what its exited children used (the parent's `cutime` and `cstime`, fields
 * 16–17, once it has reaped them), so a backend or autovacuum worker that ends between two readings keeps its time.
 * Null when no such process is visible (a server on another machine or in another PID namespace).
 */
export function readCommandCpuMicros(command: string): number | null {
  let ticks = 0;
  let found = false;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() !== command) continue;
      const fields = statFields(Number(entry));
      found = true;
      ticks += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
    } catch {
      // Gone between the listing and the read.
    }
  }
  return found ? (ticks * 1_000_000) / clockTicks() : null;
}

/** `/proc/<pid>/stat` from field 3 on (the command name, field 2, is parenthesised and may hold spaces). */
function statFields(pid: number): string[] {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/** Whether per-process figures can be read here (they cannot outside Linux). */
export function canReadProcessStats(): boolean {
  try {
    readProcessStats(process.pid);
    return true;
  } catch {
    return false;
  }
}
