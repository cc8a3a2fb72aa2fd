import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startWebhookSink, type WebhookSinkHandle } from '../src/index.js';

describe('Slack-compatible webhook sink', () => {
  let sink: WebhookSinkHandle;

  beforeAll(async () => {
    sink = await startWebhookSink();
  });
  afterAll(() => sink.close());
  beforeEach(() => sink.reset());

  const post = (path: string, body: string, contentType = 'application/json') =>
    fetch(`${sink.url}${path}`, { method: 'POST', headers: { 'content-type': contentType }, body });

  it('answers ok on any path and records the JSON payload', async () => {
    const response = await post(
      '/services/T000/B000/XXXX',
      JSON.stringify({ text: 'alice reached 80% of her monthly cap' }),
    );
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('ok');
    expect(sink.bodies).toEqual([{ text: 'alice reached 80% of her monthly cap' }]);
    expect(sink.requests[0]?.path).toBe('/services/T000/B000/XXXX');
  });

  it('accepts the form-encoded payload field like Slack does', async () => {
    const response = await post(
      '/hook',
      `payload=${encodeURIComponent(JSON.stringify({ text: 'hi' }))}`,
      'application/x-www-form-urlencoded',
    );
    expect(await response.text()).toBe('ok');
    expect(sink.bodies).toEqual([{ text: 'hi' }]);
  });

  it('rejects payloads Slack would reject, with its plain-text reasons', async () => {
    const invalid = await post('/hook', 'not json');
    expect([invalid.status, await invalid.text()]).toEqual([400, 'invalid_payload']);
    const empty = await post('/hook', JSON.stringify({ username: 'gw' }));
    expect([empty.status, await empty.text()]).toEqual([400, 'no_text']);
  });

  it('fails scripted deliveries so alert retries can be tested', async () => {
    sink.failNext(1, { status: 500 });
    const failed = await post('/hook', JSON.stringify({ text: 'first' }));
    expect([failed.status, await failed.text()]).toEqual([500, 'rollup_error']);
    const delivered = await post('/hook', JSON.stringify({ text: 'second' }));
    expect(await delivered.text()).toBe('ok');
  });

  it('lets a test await deliveries that happen asynchronously', async () => {
    const waiting = sink.waitForRequests(2, 2_000);
    void post('/a', JSON.stringify({ text: '1' }));
    void post('/b', JSON.stringify({ text: '2' }));
    const requests = await waiting;
    expect(requests.map((request) => request.path).sort()).toEqual(['/a', '/b']);
  });

  it('times out waiting when nothing arrives', async () => {
    await expect(sink.waitForRequests(1, 30)).rejects.toThrow(/expected 1 recorded requests/);
  });
});
