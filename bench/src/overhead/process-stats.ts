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
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name (field 2) is parenthesised and may hold spaces; fields are counted after its closing paren.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const rssKb = Number(/^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1] ?? Number.NaN);
  return { cpuMicros: (ticks * 1_000_000) / clockTicks(), rssBytes: rssKb * 1024 };
}

/**
 * CPU of every process running `command` (its `/proc/<pid>/comm`), summed: a server made of many processes, such as
 * Postgres with a backend per connection. A process that exits between two readings takes its time with it.
 */
export function readCommandCpuMicros(command: string): number {
  let micros = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() !== command) continue;
      micros += readProcessStats(Number(entry)).cpuMicros;
    } catch {
      // Gone between the listing and the read.
    }
  }
  return micros;
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
