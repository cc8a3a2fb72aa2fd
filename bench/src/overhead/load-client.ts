import { fork, type ChildProcess } from 'node:child_process';
import type { LoadJob, LoadMessage, LoadReply, LoadResult } from '../load/load-job.js';
import { track } from './child-process.js';
import { processEntry } from './targets.js';

/** The orchestrator's handle on the load generator process: one job at a time over IPC. */
export class LoadClient {
  #nextId = 0;
  #pending = new Map<number, { resolve: (result: LoadResult) => void; reject: (error: Error) => void }>();

  private constructor(private readonly child: ChildProcess) {
    child.on('message', (reply: LoadReply) => {
      const waiter = this.#pending.get(reply.id);
      this.#pending.delete(reply.id);
      if (reply.type === 'result') waiter?.resolve(reply.result);
      else waiter?.reject(new Error(`load generator: ${reply.message}`));
    });
    child.on('exit', (code) => {
      for (const waiter of this.#pending.values()) waiter.reject(new Error(`load generator exited with ${code}`));
      this.#pending.clear();
    });
  }

  static start(): LoadClient {
    // 'advanced' serialization carries the Float64Array samples as they are.
    return new LoadClient(
      track(
        fork(processEntry('load-generator'), [], {
          serialization: 'advanced',
          stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
        }),
      ),
    );
  }

  get pid(): number {
    return this.child.pid ?? -1;
  }

  run(job: LoadJob): Promise<LoadResult> {
    const id = (this.#nextId += 1);
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.child.send({ type: 'job', id, job } satisfies LoadMessage);
    });
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      this.child.once('exit', () => resolve());
      if (this.child.connected) this.child.send({ type: 'exit' } satisfies LoadMessage);
      else this.child.kill('SIGTERM');
    });
  }
}
