import { describe, expect, it } from 'vitest';
import { bound, goldenHandle } from './__fixtures__/bind.js';
import { expectGolden, fixture } from './__fixtures__/golden.js';
import { spanContext } from './__fixtures__/span-context.js';
import { logFold } from './log-fold.js';
import { isSalientLine } from './salient-lines.js';

describe('log_fold', () => {
  it('folds the repeated request cycles of an express DEBUG log and keeps the 500 and its stack verbatim', () => {
    const input = fixture('express-debug-log.txt');
    const planned = logFold.plan(input, spanContext(input));
    expect(planned).not.toBeNull();
    const { recipe, text } = bound(planned!);
    expect(text.split('\n')[0]).toContain(`handle "${goldenHandle}"`);
    expect(text).toContain('Error: database connection reset by peer (users-db-2:5432)');
    for (const line of input.split('\n').filter(isSalientLine)) expect(text).toContain(line);
    expect(text.length).toBeLessThan(input.length / 2);
    expectGolden('express-debug-log.log_fold.txt', text);
    expect(logFold.render(input, recipe)).toBe(text);
  });

  it('folds pino JSON lines by message type without mixing different messages', () => {
    const input = fixture('pino-log-head.txt');
    const planned = logFold.plan(input, spanContext(input, { mode: 'in_place' }));
    expect(planned).not.toBeNull();
    const text = planned?.text ?? '';
    expect(text.split('\n')[0]).toContain('(trimmed; not retrievable)');
    expect(text).toContain('"msg":"Server listening at http://127.0.0.1:42321"');
    expectGolden('pino-log-head.log_fold.txt', text);
  });

  it('never folds a source listing', () => {
    const input = fixture('read-file-listing.txt');
    expect(logFold.plan(input, spanContext(input))).toBeNull();
    expect(logFold.plan(input, spanContext(input, { toolName: 'read_file' }))).toBeNull();
  });

  it('collapses long stack traces to their top frames with a count', () => {
    const frames = Array.from(
      { length: 12 },
      (_, index) => `    at fn${index} (node_modules/lib/file${index}.js:${index}:1)`,
    );
    const block = ['GET /boom 500', 'TypeError: boom', ...frames, 'GET /ok 200'];
    const input = Array.from({ length: 4 }, () => block.join('\n')).join('\n');
    const planned = logFold.plan(input, spanContext(input, { mode: 'in_place' }));
    expect(planned?.text).toContain('    [... 8 more stack frames ...]');
    expect(planned?.text.split('\n').filter((line) => line === 'TypeError: boom')).toHaveLength(4);
  });
});
