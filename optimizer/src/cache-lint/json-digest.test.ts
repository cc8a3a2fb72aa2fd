import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonDigest } from './json-digest.js';

const sha1 = (text: string) => createHash('sha1').update(text).digest('base64').slice(0, 16);
const toolOutput = (tag: string) => `${tag} "quoted" \\ tab\t é 🔥 \u0001\n`.repeat(40);

afterEach(() => {
  vi.restoreAllMocks();
});

describe('jsonDigest', () => {
  it('digests exactly the JSON serialisation of a value without long strings', () => {
    const message = {
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'c1', function: { name: 'bash', arguments: '{"a":1}' } }],
      n: 1.5,
      ok: true,
    };
    expect(jsonDigest(message)).toEqual({
      digest: sha1(JSON.stringify(message)),
      chars: JSON.stringify(message).length,
    });
    expect(jsonDigest(undefined)).toEqual({ digest: sha1('null'), chars: 4 });
  });

  it('counts a long string at its serialised length, escapes included', () => {
    for (const value of [
      { role: 'tool', content: toolOutput('build') },
      [toolOutput('a'), 'short', toolOutput('b')],
      toolOutput('top'),
    ]) {
      expect(jsonDigest(value).chars).toBe(JSON.stringify(value).length);
    }
  });

  it('tells apart values that differ in one character of a long string, in key order, or in a string that spells a digest', () => {
    const long = toolOutput('log');
    const base = jsonDigest({ role: 'tool', content: long });
    expect(jsonDigest({ role: 'tool', content: `${long.slice(0, 100)}X${long.slice(101)}` }).digest).not.toBe(
      base.digest,
    );
    expect(jsonDigest({ content: long, role: 'tool' }).digest).not.toBe(base.digest);
    const placeholder = `#${createHash('sha256').update(long).digest('base64')}`;
    expect(jsonDigest({ role: 'tool', content: placeholder }).digest).not.toBe(base.digest);
    expect(jsonDigest({ role: 'tool', content: `${long}` }).digest).toBe(base.digest);
  });

  it('serialises a long string repeated on a later turn only once, however often it is seen', () => {
    const long = toolOutput('repeated-turn');
    const first = jsonDigest([{ role: 'tool', content: long }]);
    const stringify = vi.spyOn(JSON, 'stringify');
    // A later turn parses its body again: an equal string, not the same one.
    const again = jsonDigest([
      { role: 'tool', content: (' ' + long).slice(1) },
      { role: 'user', content: 'next' },
    ]);
    expect(stringify.mock.calls.some(([value]) => value === long)).toBe(false);
    expect(again.chars).toBe(first.chars + 1 + JSON.stringify({ role: 'user', content: 'next' }).length);
  });
});
