import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryPgliteDb, type TestDb } from '@gw/testkit';
import { runPipeline } from '../src/pipeline/index.js';
import { auth, testApp, type TestApp } from './support/test-app.js';

// The service wired to the real pipeline: what the gateway sees end to end.
let store: TestDb;
beforeAll(async () => {
  store = await createMemoryPgliteDb();
});
afterAll(async () => {
  await store.dispose();
});

const retrieveTool = {
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
const bashTool = {
  type: 'function',
  function: {
    name: 'bash',
    description: 'Run a shell command',
    parameters: { type: 'object', properties: { cmd: { type: 'string' } }, required: ['cmd'] },
  },
};

function testRun(seed: number): string {
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

function turn(count: number) {
  const messages: Array<Record<string, unknown>> = [
    { role: 'system', content: 'You are a coding agent working in /home/dev/src/express.' },
    { role: 'user', content: 'Run the test suite and fix what fails.' },
  ];
  for (let index = 0; index < count; index += 1) {
    messages.push({
      role: 'assistant',
      content: null,
      tool_calls: [
        { id: `call_${index}`, type: 'function', function: { name: 'bash', arguments: '{"cmd":"npm test"}' } },
      ],
    });
    messages.push({ role: 'tool', tool_call_id: `call_${index}`, content: testRun(index) });
  }
  messages.push({ role: 'user', content: 'What failed?' });
  return { model: 'gpt-4o', messages, tools: [bashTool, retrieveTool], tool_choice: 'auto', temperature: 0 };
}

async function optimize(harness: TestApp, body: Record<string, unknown>) {
  const response = await harness.app.inject({
    method: 'POST',
    url: '/v1/optimize',
    headers: { ...auth, 'content-type': 'application/json' },
    payload: JSON.stringify(body),
  });
  expect(response.statusCode).toBe(200);
  return response;
}

describe('/v1/optimize with the real pipeline', () => {
  it('answers byte-identical bodies for identical input, on one replica and on another', async () => {
    const body = {
      endpoint: '/v1/chat/completions',
      request: turn(2),
      metadata: { user: 'ada', gatewaySessionId: 'g-1' },
      capabilities: { retrieveEvidence: true },
    };
    const first = await optimize(await testApp({ db: store.db, runPipeline }), body);
    const again = await optimize(await testApp({ db: store.db, runPipeline }), body);
    expect(again.body).toBe(first.body);
    expect(first.json().estimatedTokensSaved).toBeGreaterThan(0);
  });

  it('leaves retrievable handles whose originals come back byte for byte', async () => {
    const harness = await testApp({ db: store.db, runPipeline });
    const request = turn(2);
    const optimized = (
      await optimize(harness, { endpoint: '/v1/chat/completions', request, metadata: { user: 'ada' } })
    ).json();
    const handles = [...new Set(JSON.stringify(optimized.request).match(/ctx_[A-Za-z0-9_-]{24,}/g) ?? [])];
    expect(handles.length).toBeGreaterThan(0);
    for (const handle of handles) {
      const retrieved = await harness.app.inject({
        method: 'POST',
        url: '/v1/retrieve',
        headers: auth,
        payload: { handle },
      });
      expect(retrieved.statusCode).toBe(200);
      const originals = request.messages.map((message) => message.content);
      expect(originals).toContain(retrieved.json().content);
    }
    // Error lines are never lost: in the optimized request or behind a handle.
    expect(JSON.stringify(optimized.request)).toContain("AssertionError: expected 'foo%2Fbar' to equal 'foo/bar'");
  });

  it('counts the lines of a folded log as retrieve does, trailing newline included', async () => {
    const harness = await testApp({ db: store.db, runPipeline });
    const request = turn(2);
    const optimized = (
      await optimize(harness, {
        endpoint: '/v1/chat/completions',
        request,
        metadata: { user: 'ada' },
        capabilities: { retrieveEvidence: true },
        enabledKinds: ['log_fold'],
      })
    ).json();
    const hints = [
      ...JSON.stringify(optimized.request).matchAll(
        /log folded: [\d,]+ of ([\d,]+) lines[^"]*?handle \\"(ctx_[A-Za-z0-9_-]+)\\"/g,
      ),
    ];
    expect(hints.length).toBeGreaterThan(0);
    for (const [, lines, handle] of hints) {
      const retrieved = (
        await harness.app.inject({ method: 'POST', url: '/v1/retrieve', headers: auth, payload: { handle } })
      ).json();
      expect(retrieved.content.endsWith('\n')).toBe(true);
      expect(retrieved.totalLines).toBe(Number(lines?.replace(/,/g, '')));
    }
  });

  it('replays pinned rewrites byte for byte across three turns', async () => {
    const harness = await testApp({ db: store.db, runPipeline });
    let pins: unknown[] = [];
    const seen = new Map<number, string>();
    for (let count = 1; count <= 3; count += 1) {
      const response = (
        await optimize(harness, {
          endpoint: '/v1/chat/completions',
          request: turn(count),
          metadata: { user: 'ada', gatewaySessionId: 'g-3' },
          pins,
        })
      ).json();
      expect(Array.isArray(response.pins)).toBe(true);
      pins = response.pins;
      const messages = response.request.messages as Array<Record<string, unknown>>;
      for (const [index, bytes] of seen) expect(JSON.stringify(messages[index])).toBe(bytes);
      messages.forEach((message, index) => {
        if (message.role === 'tool' && index < messages.length - 2) seen.set(index, JSON.stringify(message));
      });
    }
    expect(seen.size).toBeGreaterThan(0);
  });

  it('compresses a fresh test log behind a retrievable handle on a latched lane and names the evidence class', async () => {
    const harness = await testApp({ db: store.db, runPipeline });
    const request = turn(1);
    const fresh = { ...request, messages: request.messages.slice(0, -1), tools: [bashTool] };
    const body = {
      endpoint: '/v1/chat/completions',
      request: fresh,
      pins: [],
      metadata: { user: 'ada', gatewaySessionId: 'g-fresh' },
      capabilities: { retrievalDiscovery: 'lease_live' },
    };
    const answer = (await optimize(harness, body)).json();
    expect(answer.evidenceClass).toBe('deferral_latched');
    const content = answer.request.messages[3].content as string;
    expect(content).toContain("AssertionError: expected 'foo%2Fbar' to equal 'foo/bar'");
    const handle = /ctx_[A-Za-z0-9_-]+/.exec(content)?.[0];
    expect(handle).toBeDefined();
    const original = await harness.app.inject({
      method: 'POST',
      url: '/v1/retrieve',
      headers: { ...auth, 'content-type': 'application/json' },
      payload: JSON.stringify({ handle, metadata: { user: 'ada' } }),
    });
    expect(original.json().content).toBe(fresh.messages[3]?.content);
    const unqualified = (
      await optimize(harness, { ...body, capabilities: { retrievalDiscovery: 'lease_lapsed' } })
    ).json();
    expect(unqualified.evidenceClass).toBe('unlatched_deferred');
    expect(unqualified.request.messages[3].content).toBe(fresh.messages[3]?.content);
  });
});
