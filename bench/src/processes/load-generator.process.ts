import type { LoadMessage, LoadReply } from '../load/load-job.js';
import { runLoad } from '../load/run-load.js';

// The load generator's own process: forked by the orchestrator with an IPC channel ('advanced' serialization, so
// sample arrays cross as typed arrays), one job at a time.
const send = (reply: LoadReply) => process.send?.(reply);

process.on('message', (message: LoadMessage) => {
  if (message.type === 'exit') {
    process.disconnect();
    return;
  }
  runLoad(message.job).then(
    (result) => send({ type: 'result', id: message.id, result }),
    (error: unknown) =>
      send({ type: 'failed', id: message.id, message: error instanceof Error ? error.message : String(error) }),
  );
});
