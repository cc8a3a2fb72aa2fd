import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

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
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name (field 2) is parenthesised and may hold spaces; fields are counted after its closing paren.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const rssKb = Number(/^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1] ?? Number.NaN);
  return { cpuMicros: (ticks * 1_000_000) / clockTicks(), rssBytes: rssKb * 1024 };
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
