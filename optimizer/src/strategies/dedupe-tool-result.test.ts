import { describe, expect, it } from 'vitest';
import { fixture } from './__fixtures__/golden.js';
import { spanContext } from './__fixtures__/span-context.js';
import { dedupeToolResult } from './dedupe-tool-result.js';

describe('dedupe_tool_result', () => {
  const output = fixture('eslint-errors.txt');
  const earlier = { ...spanContext(output).span, key: 'm1', messageIndex: 1, toolCallId: 'call_first' };

  it('replaces an output identical to an earlier one with a reference to that call', () => {
    const context = spanContext(output, { earlierIdentical: earlier });
    const planned = dedupeToolResult.plan(output, context);
    expect(planned?.text).toBe('[identical to the output of tool call call_first above]');
    expect(planned?.recipe).toEqual({ r: 1, ref: 'm1', refCallId: 'call_first' });
    expect(dedupeToolResult.render(output, planned!.recipe)).toBe(planned?.text);
  });

  it('replays only while the earlier copy is still there and unchanged', () => {
    const context = spanContext(output, { earlierIdentical: earlier });
    const view = { ...context.view, spans: [earlier, context.span] };
    const recipe = { r: 1 as const, ref: 'm1', refCallId: 'call_first' };
    expect(dedupeToolResult.canReplay?.(recipe, context.span, view)).toBe(true);
    const changed = { ...view, spans: [{ ...earlier, text: `${output} ` }, context.span] };
    expect(dedupeToolResult.canReplay?.(recipe, context.span, changed)).toBe(false);
  });

  it('does nothing without an earlier identical output', () => {
    expect(dedupeToolResult.plan(output, spanContext(output))).toBeNull();
  });
});
