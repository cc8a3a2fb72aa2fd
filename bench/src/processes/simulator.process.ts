import { startOpenAiSimulator } from '@gw/testkit';
import { PACED_MODEL, PACED_EVENT_DELAY_MS, PACED_REPLY } from '../overhead/workload.js';

// The provider every target forwards to, in its own process so its CPU is not mixed with a proxy's.
// argv[2]: the server-held API key it accepts.
const apiKey = process.argv[2];
if (!apiKey) throw new Error('usage: simulator.process.js <api-key>');

const simulator = await startOpenAiSimulator({ apiKey, record: false });
// The one-at-a-time phase asks for PACED_MODEL: its stream events are spaced out, so a proxy that buffers a
// stream instead of relaying it shows up in time to first byte.
simulator.respondWhen((request) => (request.json as { model?: unknown } | undefined)?.model === PACED_MODEL, {
  eventDelayMs: PACED_EVENT_DELAY_MS,
  reply: { text: PACED_REPLY },
});
process.stdout.write(`simulator listening on ${simulator.url}\n`);
process.on('SIGTERM', () => {
  void simulator.close().finally(() => process.exit(0));
});
