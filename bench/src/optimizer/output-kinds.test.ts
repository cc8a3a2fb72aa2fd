import { describe, expect, it } from 'vitest';
import { classifyOutput, outputKindsByMessage } from './output-kinds.js';

describe('classifyOutput', () => {
  it.each([
    [{ name: 'read_file', command: 'lib/response.js' }, 'file read'],
    [{ name: 'bash', command: 'npm test' }, 'test log'],
    [{ name: 'bash', command: 'npx mocha test/api.capture.js' }, 'test log'],
    [{ name: 'Bash', command: 'npx tsc --noEmit' }, 'build/lint log'],
    [{ name: 'bash', command: 'FORCE_COLOR=1 npm install --verbose --color=always' }, 'install log'],
    [{ name: 'bash', command: 'git log --stat -n 200' }, 'git history/diff'],
    [{ name: 'bash', command: 'npm ls --all --json' }, 'dependency tree/JSON'],
    [{ name: 'bash', command: 'find . -type f -not -path "./.git/*"' }, 'listing'],
    [{ name: 'Grep', command: 'timeout' }, 'listing'],
    [{ name: 'bash', command: 'sed -n 295,320p lib/request.js' }, 'file read'],
    [{ name: 'bash', command: 'timeout 60 node .demo-server.js' }, 'other'],
  ] as const)('%o is a %s', (call, kind) => {
    expect(classifyOutput(call)).toBe(kind);
  });
});

describe('outputKindsByMessage', () => {
  it('finds the call behind each chat tool message and each Messages tool_result', () => {
    const messages = [
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'bash', arguments: '{"command":"npm test"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: '1 failing' },
      {
        role: 'assistant',
        content: [{ type: 'tool_use', id: 'toolu_1', name: 'Read', input: { file_path: 'index.js' } }],
      },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: '1\tconst a = 1;' }] },
      { role: 'user', content: 'thanks' },
    ];
    expect([...outputKindsByMessage(messages)]).toEqual([
      [1, 'test log'],
      [3, 'file read'],
    ]);
  });
});
