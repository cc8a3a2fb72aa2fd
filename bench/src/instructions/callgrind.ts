import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** valgrind's callgrind tool, started with counting off: warm-up runs at valgrind's uninstrumented speed. */
export function callgrindLauncher(outputFile: string): string[] {
  return [
    'valgrind',
    '--tool=callgrind',
    `--callgrind-out-file=${outputFile}`,
    '--instr-atstart=no',
    '--dump-instr=no',
    // Helper threads (parallel scavenge, concurrent marking, background compilation) count too: their work is
    // the request's as much as the main thread's.
    '--separate-threads=no',
  ];
}

/** The three valgrind programs the benchmark drives, or a message saying how to get them. */
export async function checkValgrind(): Promise<void> {
  for (const [program, args] of [
    ['valgrind', ['--version']],
    ['callgrind_control', ['--version']],
    ['callgrind_annotate', ['--version']],
  ] as const) {
    try {
      await run(program, [...args]);
    } catch (error) {
      // callgrind_annotate answers --version with exit status 255: only a missing program counts.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT')
        throw new Error(`${program} is not on PATH: install valgrind (apt-get install valgrind) and run again`, {
          cause: error,
        });
    }
  }
}

/** `callgrind_control <command> <pid>`: answered by the process's embedded gdbserver once the command has run. */
export async function callgrindControl(pid: number, command: '--instr=on' | '--instr=off' | '--zero' | '--dump') {
  // vgdb reaches a process blocked in a system call through ptrace; where that is not allowed it would wait forever.
  await run('callgrind_control', [command, String(pid)], { timeout: 120_000 }).catch((error: unknown) => {
    throw new Error(`callgrind_control ${command} ${pid} failed (is ptrace allowed here?)`, { cause: error });
  });
}

/** Self instructions per function of one dump. */
export async function annotate(file: string): Promise<string> {
  const { stdout } = await run('callgrind_annotate', ['--inclusive=no', '--threshold=100', '--auto=no', file], {
    maxBuffer: 256 * 1024 * 1024,
    timeout: 600_000,
  });
  return stdout;
}
