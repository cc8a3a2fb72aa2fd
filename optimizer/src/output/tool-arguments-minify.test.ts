import { describe, expect, it } from 'vitest';
import { minifyArguments, minifyToolArguments } from './tool-arguments-minify.js';

describe('minifyArguments', () => {
  it('drops whitespace between tokens and keeps every string byte, escapes included', () => {
    const text =
      '{\n\t"path" : "a b\\\\",\r\n  "lines": [ 1 , 2.50 , -0e0 ],\n  "note": "say \\"hi  there\\"\\n",\n  "emoji": "é ✓"\n}\n';
    expect(minifyArguments(text)).toBe(
      '{"path":"a b\\\\","lines":[1,2.50,-0e0],"note":"say \\"hi  there\\"\\n","emoji":"é ✓"}',
    );
  });

  it('answers null when there is nothing to remove or the text is not one JSON document', () => {
    expect(minifyArguments('{"command":"ls -la"}')).toBeNull();
    expect(minifyArguments('{"command": "ls')).toBeNull();
    expect(minifyArguments('{"a": 1} {"b": 2}')).toBeNull();
    expect(minifyArguments('  ')).toBeNull();
  });
});

describe('minifyToolArguments', () => {
  it('rewrites a copy: the caller’s response is never mutated', () => {
    const response = {
      choices: [{ message: { tool_calls: [{ function: { name: 'bash', arguments: '{ "x": 1 }' } }] } }],
    };
    const before = structuredClone(response);
    const rewrite = minifyToolArguments(response);
    expect(response).toEqual(before);
    expect(rewrite?.calls).toBe(1);
    expect(rewrite?.response).toEqual({
      choices: [{ message: { tool_calls: [{ function: { name: 'bash', arguments: '{"x":1}' } }] } }],
    });
  });

  it('covers the legacy function_call and several choices', () => {
    const response = {
      choices: [
        { message: { function_call: { name: 'f', arguments: '{ "a": [ ] }' } } },
        { message: { tool_calls: [{ function: { arguments: '[ 1, 2 ]' } }, { function: { arguments: '{}' } }] } },
      ],
    };
    const rewrite = minifyToolArguments(response);
    expect(rewrite?.after).toEqual(['{"a":[]}', '[1,2]']);
  });
});
