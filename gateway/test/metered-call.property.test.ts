import type { ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAnthropicSimulator, startOpenAiSimulator, type Behaviour, type SimulatorHandle } from '@gw/testkit';
import { adminHeaders, mintClientKey, startTestGateway, type TestGateway } from './helpers.js';
import { recordedSpend } from './spend-signals.js';

// Every lane, every way a call can end: exactly one spend row (and one trace) per call, with the status the call
// ended with and the provider's usage, or the gateway's estimate when the call was cut after the provider had the
// prompt. The lanes report what happened; the metering stage alone records it.

const orgKey = 'sk-ant-org-key-0000';
const seatToken = `sk-ant-oat01-PROPERTY${'q'.repeat(24)}`;

type Scenario = 'success' | 'provider error' | 'cancel before send' | 'cancel after send' | 'mid-stream cut' | 'drain';

interface LaneCase {
  name: string;
  /** The simulator the lane calls; null for a lane that calls none. */
  provider: 'openai' | 'anthropic' | null;
  /** Whether the lane can wait before its upstream send (a seat's throttle pause), so a client can leave in between. */
  waitsBeforeSend: boolean;
  request(
    prompt: string,
    stream: boolean,
  ): { url: string; headers: Record<string, string>; body: Record<string, unknown> };
  /** Whether a stream request of this lane answers as a stream. */
  streams: boolean;
  /** Whether the lane's requests stream by default (the SSE lane). */
  alwaysStreams?: boolean;
}

const messages = (prompt: string) => [{ role: 'user', content: prompt }];

describe('one metered call, whatever the lane and however it ends', () => {
  let openai: SimulatorHandle;
  let anthropic: SimulatorHandle;
  let gateway: TestGateway;
  let baseUrl: string;
  let gwKey: string;
  /** The server side of the call in flight, to know when the gateway has seen its client leave. */
  const responses = new Map<string, ServerResponse>();

  beforeAll(async () => {
    openai = await startOpenAiSimulator({ apiKey: 'sk-openai' });
    anthropic = await startAnthropicSimulator({ apiKey: [orgKey, seatToken] });
    gateway = await startTestGateway();
    await gateway.app.inject({
      method: 'PUT',
      url: '/admin/v1/providers/openai/key',
      headers: adminHeaders,
      payload: { apiKey: 'sk-openai', baseUrl: openai.baseURL },
    });
    await gateway.app.inject({
      method: 'PUT',
      url: '/admin/v1/providers/anthropic/key',
      headers: adminHeaders,
      payload: { apiKey: orgKey, baseUrl: anthropic.url },
    });
    await gateway.app.inject({
      method: 'PUT',
      url: '/admin/v1/routing',
      headers: adminHeaders,
      payload: { defaultProvider: 'openai' },
    });
    gwKey = (await mintClientKey(gateway.app)).key;
    baseUrl = await gateway.app.listen({ port: 0, host: '127.0.0.1' });
    gateway.app.server.on('request', (request, response: ServerResponse) => {
      const tag = /"case":"([^"]+)"/.exec(String(request.headers['x-gw-metadata'] ?? ''))?.[1];
      if (tag) responses.set(tag, response);
    });
  });
  afterAll(async () => {
    await gateway.close();
    await openai.close();
    await anthropic.close();
  });

  const seatHeaders = () => ({
    'x-gw-api-key': gwKey,
    authorization: `Bearer ${seatToken}`,
    'anthropic-version': '2023-06-01',
  });
  const lanes: LaneCase[] = [
    {
      name: 'named JSON',
      provider: 'openai',
      waitsBeforeSend: true,
      streams: false,
      request: (prompt) => ({
        url: '/v1/chat/completions',
        headers: { authorization: `Bearer ${gwKey}` },
        body: { model: 'gpt-4.1', messages: messages(prompt) },
      }),
    },
    {
      name: 'SSE stream',
      provider: 'openai',
      waitsBeforeSend: true,
      streams: true,
      alwaysStreams: true,
      request: (prompt) => ({
        url: '/v1/chat/completions',
        headers: { authorization: `Bearer ${gwKey}` },
        body: { model: 'gpt-4.1', stream: true, messages: messages(prompt) },
      }),
    },
    {
      name: 'passthrough',
      provider: 'openai',
      waitsBeforeSend: false,
      streams: true,
      request: (prompt, stream) => ({
        url: '/v1/responses',
        headers: { authorization: `Bearer ${gwKey}` },
        body: { model: 'gpt-4.1', input: prompt, ...(stream ? { stream: true } : {}) },
      }),
    },
    {
      name: 'subscription seat',
      provider: 'anthropic',
      waitsBeforeSend: true,
      streams: true,
      request: (prompt, stream) => ({
        url: '/v1/messages',
        headers: seatHeaders(),
        body: {
          model: 'claude-sonnet-4-5',
          max_tokens: 64,
          messages: messages(prompt),
          ...(stream ? { stream: true } : {}),
        },
      }),
    },
    {
      name: 'vendor seat',
      provider: 'anthropic',
      waitsBeforeSend: false,
      streams: true,
      request: (prompt, stream) => ({
        url: '/v1/vendor/max/seat-1/messages',
        headers: seatHeaders(),
        body: {
          model: 'claude-sonnet-4-5',
          max_tokens: 64,
          messages: messages(prompt),
          ...(stream ? { stream: true } : {}),
        },
      }),
    },
    {
      name: 'VS Code optimize',
      provider: null,
      waitsBeforeSend: false,
      streams: false,
      request: (prompt) => ({
        url: '/v1/extensions/vscode/optimize',
        headers: { authorization: `Bearer ${gwKey}` },
        body: { request: { model: 'gpt-4.1', messages: messages(prompt) } },
      }),
    },
  ];

  const applies = (lane: LaneCase, scenario: Scenario): boolean => {
    if (lane.provider === null) return scenario === 'success';
    if (scenario === 'cancel before send') return lane.waitsBeforeSend;
    if (scenario === 'mid-stream cut') return lane.streams;
    return true;
  };

  const simulator = (lane: LaneCase) => (lane.provider === 'anthropic' ? anthropic : openai);

  /** The rows and traces of one tagged call, once its row is in the store. */
  async function recorded(tag: string) {
    const query = "SELECT * FROM gw_spend WHERE attribution->'metadata'->>'case' = $1";
    // The metering stage records the call once its lane has settled; anything recorded twice would be in by then too.
    await recordedSpend(gateway, (record) => record.attribution.metadata?.case === tag);
    // Traces are written with their spend rows.
    await gateway.deps.spendWriter.drain();
    const { rows } = await gateway.deps.db.query<Record<string, unknown>>(query, [tag]);
    const traces = await gateway.deps.db.query<Record<string, unknown>>('SELECT * FROM gw_traces WHERE id = ANY($1)', [
      rows.map((row) => row.id),
    ]);
    return { rows, traces: traces.rows };
  }

  /** Resolves once the gateway's side of the tagged call has seen its client leave. */
  const clientGone = (tag: string) =>
    new Promise<void>((resolve) => {
      const response = responses.get(tag);
      if (!response || response.socket?.destroyed !== false) return resolve();
      response.once('close', () => resolve());
    });

  async function readSome(body: ReadableStream<Uint8Array>): Promise<void> {
    const reader = body.getReader();
    let received = '';
    while ((received.match(/delta/g) ?? []).length < 2) {
      const { value, done } = await reader.read();
      if (done) throw new Error('the stream ended before it could be cut');
      received += new TextDecoder().decode(value);
    }
  }

  /** Runs one call of `lane` ending as `scenario`; returns what the client saw (a status, or that it left). */
  async function drive(
    lane: LaneCase,
    scenario: Scenario,
    prompt: string,
    usage: { inputTokens: number; outputTokens: number },
    tag: string,
  ): Promise<void> {
    const provider = simulator(lane);
    provider.reset();
    const stream = scenario === 'mid-stream cut' || lane.alwaysStreams === true;
    const { url, headers, body } = lane.request(prompt, stream);
    const abort = new AbortController();
    const behaviour: Behaviour =
      scenario === 'provider error'
        ? { status: 400, error: { type: 'invalid_request_error', message: 'bad request for the property' } }
        : scenario === 'cancel after send' || scenario === 'drain'
          ? { latencyMs: 30_000 }
          : scenario === 'mid-stream cut'
            ? { eventDelayMs: 30, reply: { text: 'word '.repeat(200) }, usage }
            : { usage };
    provider.script(behaviour);
    const inference = gateway.deps.inference;
    const drainDeadline = new AbortController();
    const restore = {
      sleep: inference.sleep,
      check: inference.throttle.check.bind(inference.throttle),
      shutdown: inference.shutdown,
    };
    if (scenario === 'cancel before send') {
      // The seat is paused: the call waits before its send, and the client leaves meanwhile.
      inference.throttle.check = () => ({ kind: 'wait', waitMs: 1 });
      inference.sleep = async () => {
        abort.abort();
        await clientGone(tag);
      };
    }
    if (scenario === 'drain') inference.shutdown = drainDeadline.signal;
    try {
      const pending = fetch(`${baseUrl}${url}`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json', 'x-gw-metadata': JSON.stringify({ case: tag }) },
        body: JSON.stringify(body),
        signal: abort.signal,
      });
      if (scenario === 'cancel after send' || scenario === 'drain') {
        await provider.waitForRequests(1);
        if (scenario === 'drain') drainDeadline.abort();
        else abort.abort();
      }
      const response = await pending.catch(() => null);
      if (scenario === 'mid-stream cut' && response?.body) {
        await readSome(response.body);
        abort.abort();
      } else if (response) await response.text().catch(() => undefined);
    } finally {
      inference.sleep = restore.sleep;
      inference.throttle.check = restore.check;
      inference.shutdown = restore.shutdown;
    }
  }

  const expected = (lane: LaneCase, scenario: Scenario, usage: { inputTokens: number; outputTokens: number }) => {
    switch (scenario) {
      case 'success':
        return lane.provider === null
          ? { status: 200, error_code: null, prompt_tokens: 0, completion_tokens: 0, usage_estimated: false }
          : {
              status: 200,
              error_code: null,
              prompt_tokens: usage.inputTokens,
              completion_tokens: usage.outputTokens,
              usage_estimated: false,
            };
      case 'provider error':
        return { status: 400, outcome: 'error', prompt_tokens: 0, completion_tokens: 0, usage_estimated: false };
      case 'cancel before send':
        return {
          status: 499,
          error_code: 'client_closed',
          provider: null,
          prompt_tokens: 0,
          completion_tokens: 0,
          usage_estimated: false,
        };
      case 'cancel after send':
        return { status: 499, error_code: 'client_closed', completion_tokens: 0, usage_estimated: true };
      case 'drain':
        return { status: 503, error_code: 'gateway_draining', completion_tokens: 0, usage_estimated: true };
      case 'mid-stream cut':
        return { status: 499, error_code: 'client_closed', usage_estimated: true, stream: true };
    }
  };

  const scenarios: Scenario[] = [
    'success',
    'provider error',
    'cancel before send',
    'cancel after send',
    'mid-stream cut',
    'drain',
  ];
  for (const lane of lanes) {
    for (const scenario of scenarios.filter((candidate) => applies(lane, candidate))) {
      it(`${lane.name}: ${scenario}`, async () => {
        await fc.assert(
          fc.asyncProperty(
            fc.string({ minLength: 1, maxLength: 400 }),
            fc.record({
              inputTokens: fc.integer({ min: 1, max: 50_000 }),
              outputTokens: fc.integer({ min: 1, max: 5_000 }),
            }),
            async (prompt, usage) => {
              const tag = randomUUID();
              await drive(lane, scenario, prompt, usage, tag);
              const { rows, traces } = await recorded(tag);
              expect(rows).toHaveLength(1);
              const row = rows[0];
              expect(row).toMatchObject(expected(lane, scenario, usage));
              // A call cut after the provider had the prompt carries at least the prompt estimate, and names the provider.
              if (row.usage_estimated === true) {
                expect(Number(row.prompt_tokens)).toBeGreaterThan(0);
                expect(row.provider).toBe(lane.provider);
              }
              if (scenario === 'cancel before send') expect(simulator(lane).requests).toHaveLength(0);
              expect(traces).toHaveLength(1);
              expect(traces[0]).toMatchObject({
                endpoint: row.endpoint,
                status: row.status,
                prompt_tokens: row.prompt_tokens,
                completion_tokens: row.completion_tokens,
              });
            },
          ),
          { numRuns: 3 },
        );
      }, 60_000);
    }
  }
});
