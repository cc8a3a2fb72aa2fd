import { auth, type TestApp } from './support/test-app.js';

/** A coding agent's transcript: `count` runs of the same test command, each with a long, noisy result. */
export const bashTool = {
  type: 'function',
  function: {
    name: 'bash',
    description: 'Run a shell command',
    parameters: { type: 'object', properties: { cmd: { type: 'string' } }, required: ['cmd'] },
  },
};
export const retrieveTool = {
  type: 'function',
  function: {
    name: 'gw_retrieve',
    description: 'Retrieve original content elided from earlier messages.',
    parameters: {
      type: 'object',
      properties: {
        handle: { type: 'string' },
        startLine: { type: 'number' },
        endLine: { type: 'number' },
        grep: { type: 'string' },
      },
      required: ['handle'],
    },
  },
};

export function testRun(seed: number): string {
  const lines = [
    '> express@5.0.0 test',
    '> mocha --require test/support/env --reporter spec --check-leaks test/ test/acceptance/',
    '',
  ];
  for (let index = 0; index < 400; index += 1)
    lines.push(
      `  \u001b[32m✔\u001b[0m res.format(${seed}-${index}) should respond with the matching type (${index % 7}ms)   `,
    );
  lines.push(
    '  1) app.router should decode correct params:',
    "     AssertionError: expected 'foo%2Fbar' to equal 'foo/bar'",
    '      at Context.<anonymous> (test/app.router.js:219:9)',
  );
  lines.push('', '  400 passing (2s)', '  1 failing', '');
  return lines.join('\n');
}

/** `count` tool calls, each `{"cmd":"<command>"}` with its own output, then a user question. */
export function turn(count: number, command = (index: number) => `npm test -- --seed ${index}`, seedOffset = 0) {
  const messages: Array<Record<string, unknown>> = [
    { role: 'system', content: 'You are a coding agent working in /home/dev/src/express.' },
    { role: 'user', content: 'Run the test suite and fix what fails.' },
  ];
  for (let index = 0; index < count; index += 1) {
    messages.push({
      role: 'assistant',
      content: null,
      tool_calls: [
        {
          id: `call_${index}`,
          type: 'function',
          function: { name: 'bash', arguments: JSON.stringify({ cmd: command(index) }) },
        },
      ],
    });
    messages.push({ role: 'tool', tool_call_id: `call_${index}`, content: testRun(index + seedOffset) });
  }
  messages.push({ role: 'user', content: 'What failed?' });
  return { model: 'gpt-4o', messages, tools: [bashTool, retrieveTool], tool_choice: 'auto', temperature: 0 };
}

export async function optimize(harness: TestApp, body: Record<string, unknown>) {
  const response = await harness.app.inject({
    method: 'POST',
    url: '/v1/optimize',
    headers: { ...auth, 'content-type': 'application/json' },
    payload: JSON.stringify(body),
  });
  if (response.statusCode !== 200) throw new Error(`optimize answered ${response.statusCode}: ${response.body}`);
  return response;
}

export function handlesOf(request: unknown): string[] {
  return [...new Set(JSON.stringify(request).match(/ctx_[A-Za-z0-9_-]{24,}/g) ?? [])];
}
