import { describe, expect, it } from 'vitest';
import { bound, goldenHandle } from './__fixtures__/bind.js';
import { expectGolden, fixture } from './__fixtures__/golden.js';
import { spanContext } from './__fixtures__/span-context.js';
import { readJsonValue } from './json/json-lexer.js';
import { jsonArraySummary } from './json-array-summary.js';

describe('json_array_summary', () => {
  it('summarises the versions list and the time map of `npm view fastify --json`, copying the rest byte for byte', () => {
    const input = fixture('npm-view-fastify.txt');
    const planned = jsonArraySummary.plan(input, spanContext(input));
    expect(planned).not.toBeNull();
    const { recipe, text } = bound(planned!);
    expect(text).toContain('"_id": "fastify@5.12.8"');
    expect(text).toContain(`handle '${goldenHandle}'`);
    expect(text).toMatch(/\[gw\] [\d,]+ of [\d,]+ items elided \(each a string\)/);
    // Still a JSON document: the markers are JSON strings.
    const body = text.slice(text.indexOf('\n{') + 1);
    expect(readJsonValue(body)).not.toBeNull();
    expect(text.length).toBeLessThan(input.length / 3);
    expectGolden('npm-view-fastify.json_array_summary.txt', text);
    expect(jsonArraySummary.render(input, recipe)).toBe(text);
  });

  it('describes arrays of objects by their keys, never their values', () => {
    const items = Array.from(
      { length: 40 },
      (_, index) => `    {"name": "pkg-${index}", "version": "1.${index}.0", "dev": ${index % 2 === 0}}`,
    );
    const input = `[\n${items.join(',\n')}\n]\n`;
    const planned = jsonArraySummary.plan(input, spanContext(input, { mode: 'in_place' }));
    expect(planned?.text).toContain(
      '35 of 40 items elided (each an object {name: string, version: string, dev: literal}); trimmed, not retrievable',
    );
    expect(planned?.text).toContain('"pkg-0"');
    expect(planned?.text).toContain('"pkg-39"');
    expect(planned?.text).not.toContain('"pkg-20"');
  });

  it('leaves mixed or small collections alone', () => {
    const mixed = `[${Array.from({ length: 60 }, (_, index) => (index % 2 === 0 ? `"s${index}${'x'.repeat(30)}"` : String(index))).join(', ')}]`;
    expect(jsonArraySummary.plan(mixed, spanContext(mixed))).toBeNull();
    const small = `{"a": [1, 2, 3], "pad": "${'x'.repeat(2_000)}"}`;
    expect(jsonArraySummary.plan(small, spanContext(small))).toBeNull();
  });
});
