import { Writable } from 'node:stream';
import { createLogger } from '@gw/platform';
import { ChangeSignal } from './change-signal.js';

/**
 * A logger that keeps the message of every line it writes and lets a test wait for one: the operator says what it
 * did ("became leader") in its log, and that line is the event a test can wait on.
 */
export function recordingLogger(name: string) {
  const messages: string[] = [];
  const changes = new ChangeSignal();
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean))
        messages.push((JSON.parse(line) as { msg?: string }).msg ?? '');
      // Checked once the code that logged has finished its turn (the log line comes before what it announces).
      queueMicrotask(() => changes.notify());
      done();
    },
  });
  return {
    logger: createLogger({ name, level: 'info', destination }),
    messages,
    /** Resolves once `message` was logged `count` times; rejects naming it when `signal` (the test's) aborts first. */
    logged(message: string, count: number, signal?: AbortSignal) {
      const seen = () => messages.filter((candidate) => candidate === message).length;
      return changes.until(`"${message}" logged ${count} time(s) by ${name}`, () => seen() >= count, signal);
    },
  };
}
