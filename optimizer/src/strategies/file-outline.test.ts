import { describe, expect, it } from 'vitest';
import type { ToolOutputSpan } from '../format/request-view.js';
import { bound, goldenHandle } from './__fixtures__/bind.js';
import { expectGolden, fixture } from './__fixtures__/golden.js';
import { spanContext } from './__fixtures__/span-context.js';
import { elideToolOutput } from './elide-tool-output.js';
import { fileOutline, isOutline } from './file-outline.js';

const responseJs = fixture('read-file-response-js.txt');

function readContext(text: string, others: string[] = []) {
  const context = spanContext(text, { toolName: 'read_file' });
  const span: ToolOutputSpan = { ...context.span, toolInput: '{"path": "lib/response.js"}' };
  const extra = others.map((other, index): ToolOutputSpan => ({
    ...span,
    key: `m${5 + index}`,
    messageIndex: 5 + index,
    text: other,
    toolInput: '{"command":"npm test"}',
  }));
  return { ...context, span, view: { ...context.view, spans: [span, ...extra] } };
}

describe('file_outline', () => {
  it('reduces a 1,050-line read of express lib/response.js to its declarations, numbered, behind a handle', () => {
    const planned = fileOutline.plan(responseJs, readContext(responseJs));
    expect(planned).not.toBeNull();
    const { recipe, text } = bound(planned!);
    const lines = text.split('\n');
    expect(lines[0]).toMatch(
      new RegExp(
        `^\\[\\.\\.\\. outline of a 1,050-line file: .*; [\\d,]+ lines elided; call gw_retrieve with handle "${goldenHandle}"`,
      ),
    );
    expect(isOutline(text)).toBe(true);
    // The map a model navigates by: each helper's signature with the file's own line number.
    expect(text).toContain('res.sendFile = function sendFile(path, options, callback) {');
    expect(text).toMatch(/^\s+\d+\tres\.links = function\(links\) \{$/m);
    expect(text).toContain("var deprecate = require('depd')('express');");
    // Every line of the outline is a line of the original, byte for byte.
    const original = new Set(responseJs.split('\n'));
    for (const line of lines.slice(1)) expect(original.has(line)).toBe(true);
    expect(text.length).toBeLessThan(responseJs.length / 4);
    expectGolden('read-file-response-js.file_outline.txt', text);
    expect(fileOutline.render(responseJs, recipe)).toBe(text);
    expect(fileOutline.parseRecipe(JSON.parse(JSON.stringify(recipe)))).toEqual(recipe);
  });

  it('keeps the lines around a place another output points at', () => {
    const trace = 'TypeError: boom\n    at ServerResponse.cookie (/home/dev/src/express/lib/response.js:767:12)';
    const planned = fileOutline.plan(responseJs, readContext(responseJs, [trace]));
    expect(planned?.text).toContain('   767\t      opts.maxAge = Math.floor(maxAge / 100)');
    expect(fileOutline.plan(responseJs, readContext(responseJs))?.text).not.toContain(
      'opts.maxAge = Math.floor(maxAge / 100)',
    );
  });

  it('keeps throw lines, the source code’s error lines', () => {
    const text = fileOutline.plan(responseJs, readContext(responseJs))?.text ?? '';
    const throws = responseJs.split('\n').filter((line) => /\bthrow\b/.test(line));
    expect(throws.length).toBeGreaterThan(3);
    for (const line of throws) expect(text).toContain(line);
  });

  it('leaves alone what is not a numbered file read, and short reads', () => {
    const log = fixture('tap-failures.txt');
    expect(fileOutline.plan(log, readContext(log))).toBeNull();
    const short = responseJs.split('\n').slice(0, 59).join('\n');
    expect(fileOutline.plan(short, readContext(short))).toBeNull();
  });

  it('is not cut again by elision', () => {
    const outline = fileOutline.plan(responseJs, readContext(responseJs))!.text;
    expect(elideToolOutput.plan(outline, spanContext(outline))).toBeNull();
  });

  it('refuses a recipe that is not ranges of line numbers', () => {
    expect(fileOutline.parseRecipe({ r: 1, handle: null, keep: [1, 2, 3] })).toBeNull();
    expect(fileOutline.parseRecipe({ r: 1, handle: null, keep: ['1', 2] })).toBeNull();
    expect(fileOutline.parseRecipe({ r: 2, handle: null, keep: [] })).toBeNull();
  });
});
