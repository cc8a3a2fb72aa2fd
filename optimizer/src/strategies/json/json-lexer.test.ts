import { describe, expect, it } from 'vitest';
import { locateJsonDocument, readJsonValue } from './json-lexer.js';

describe('the lexical JSON reader', () => {
  it('records where every value sits without building values', () => {
    const text = '{"a": [1, 2.50, -3e2], "b": {"c": "x\\"y"}, "d": null}';
    const root = readJsonValue(text);
    expect(root?.kind).toBe('object');
    expect(root?.keys.map((key) => text.slice(key.start, key.end))).toEqual(['"a"', '"b"', '"d"']);
    const list = root?.children[0];
    expect(list?.children.map((item) => text.slice(item.start, item.end))).toEqual(['1', '2.50', '-3e2']);
    expect(text.slice(root!.children[1].children[0].start, root!.children[1].children[0].end)).toBe('"x\\"y"');
  });

  it('rejects what is not JSON: trailing commas, single quotes, bare words, raw control characters', () => {
    for (const text of ['[1, 2,]', "{'a': 1}", '{a: 1}', '["tab\there"]', '[01]', '{"a" 1}', '[tru]']) {
      expect(readJsonValue(text), text).toBeNull();
    }
  });

  it('finds a document after a few lines of tool chatter, not a stray bracket inside a log', () => {
    const body = `{\n  "versions": [\n${'    "1.0.0",\n'.repeat(20)}    "2.0.0"\n  ]\n}\n`;
    const document = locateJsonDocument(`npm warn noisy line\n${body}`);
    expect(document?.prefixEnd).toBe('npm warn noisy line\n'.length);
    expect(locateJsonDocument(`[1] ${'log line\n'.repeat(20)}`)).toBeNull();
  });
});
