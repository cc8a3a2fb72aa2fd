import OpenAI, { toFile } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { costUsd } from '../src/providers/pricing/cost.js';
import { lookupModel } from '../src/providers/pricing/known-models.js';
import { mintClientKey, startTestGateway, type TestGateway } from './helpers.js';
import { listenWithSdks, spendRows, startInferenceFixture, type InferenceFixture } from './inference-helpers.js';
import { recordedSpends } from './spend-signals.js';

type Row = Record<string, unknown>;

const requests = ['alpha', 'beta', 'gamma'].map((word, index) =>
  JSON.stringify({
    custom_id: `req-${word}`,
    method: 'POST',
    url: '/v1/chat/completions',
    body: {
      model: index === 2 ? 'gpt-4o' : 'gpt-4o-mini',
      messages: [{ role: 'user', content: `Say ${word} ${'again '.repeat(index * 5)}` }],
    },
  }),
);

interface OutputLine {
  custom_id: string;
  response: {
    status_code: number;
    body: { model: string; usage: { prompt_tokens: number; completion_tokens: number } };
  };
}

// The Files and Batch APIs through the gateway with the official SDK, against the OpenAI simulator's batches.
describe('batches through the gateway', () => {
  let fixture: InferenceFixture;
  let baseUrl: string;
  let sdk: OpenAI;

  beforeAll(async () => {
    fixture = await startInferenceFixture();
    ({ baseUrl, openai: sdk } = await listenWithSdks(fixture));
  });
  afterAll(() => fixture.close());

  /** Uploads the requests and creates a batch, then polls it to completion as a client would. */
  async function completedBatch(client: OpenAI = sdk): Promise<OpenAI.Batch> {
    const file = await client.files.create({
      file: await toFile(Buffer.from(`${requests.join('\n')}\n`), 'requests.jsonl'),
      purpose: 'batch',
    });
    expect(file.purpose).toBe('batch');
    let batch = await client.batches.create({
      input_file_id: file.id,
      endpoint: '/v1/chat/completions',
      completion_window: '24h',
    });
    for (let poll = 0; poll < 5 && batch.status !== 'completed'; poll += 1)
      batch = await client.batches.retrieve(batch.id);
    expect(batch.status).toBe('completed');
    return batch;
  }

  const download = (batchId: string, key = fixture.clientKey) =>
    fetch(`${baseUrl}/v1/batches/${batchId}/output`, { headers: { authorization: `Bearer ${key}` } });
  /**
   * Waits for `count` downloads of the batch's output to be metered on `gateway`. A download bills its lines before
   * its own record is made, so once its record exists the lines it billed are recorded too.
   */
  const downloadsMetered = (batchId: string, count: number, gateway: TestGateway = fixture.gateway) =>
    recordedSpends(gateway, (record) => record.endpoint === `/v1/batches/${batchId}/output`, count);
  const lineRows = async (batchId: string): Promise<Row[]> =>
    (await spendRows(fixture.gateway)).filter(
      (row) => (row.attribution as { properties?: { batch_id?: string } }).properties?.batch_id === batchId,
    );

  it('relays the output byte for byte and writes one row per line with that line’s tokens and cost, once', async () => {
    const batch = await completedBatch();
    const outputFileId = batch.output_file_id ?? '';
    const viaFiles = Buffer.from(await (await sdk.files.content(outputFileId)).arrayBuffer());

    const first = await download(batch.id);
    expect(first.status).toBe(200);
    expect(first.headers.get('x-gw-provider')).toBe('openai');
    const body = Buffer.from(await first.arrayBuffer());
    expect(body.equals(viaFiles)).toBe(true);
    const lines = body
      .toString('utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as OutputLine);
    expect(lines.map((line) => line.custom_id)).toEqual(['req-alpha', 'req-beta', 'req-gamma']);

    // The lines are billed just after the last byte reached the client.
    await downloadsMetered(batch.id, 1);
    const rows = await lineRows(batch.id);
    expect(rows).toHaveLength(3);
    const { rows: keys } = await fixture.gateway.deps.db.query<{ id: string }>(
      "SELECT id FROM gw_keys WHERE user_id = 'ada@example.com'",
    );
    for (const line of lines) {
      const { usage, model } = line.response.body;
      const row = rows.find(
        (candidate) => candidate.model === model && candidate.prompt_tokens === usage.prompt_tokens,
      );
      const expectedCost = costUsd(
        {
          inputTokens: usage.prompt_tokens,
          outputTokens: usage.completion_tokens,
          cacheReadTokens: 0,
          cacheWriteTokens: 0,
        },
        lookupModel(model),
      );
      expect(expectedCost).toBeGreaterThan(0);
      expect(row).toMatchObject({
        endpoint: '/v1/chat/completions',
        status: 200,
        outcome: 'success',
        provider: 'openai',
        completion_tokens: usage.completion_tokens,
        total_tokens: usage.prompt_tokens + usage.completion_tokens,
        user_id: 'ada@example.com',
        team: 'compilers',
        key_type: 'client',
        reasoning_effort: null,
      });
      expect(Number(row?.cost_usd)).toBeCloseTo(expectedCost, 10);
      expect(keys.map((key) => key.id)).toContain(row?.key_id);
    }

    // The download's own row carries no tokens: the lines are the cost.
    const all = await spendRows(fixture.gateway);
    const downloadRow = all.find((row) => row.endpoint === `/v1/batches/${batch.id}/output`);
    expect(downloadRow).toMatchObject({ status: 200, prompt_tokens: 0, completion_tokens: 0 });
    expect(Number(downloadRow?.cost_usd)).toBe(0);

    const second = await download(batch.id);
    expect(Buffer.from(await second.arrayBuffer()).equals(body)).toBe(true);
    // The second download's own row is written after its lines were (not) billed: wait for it, then count again.
    await downloadsMetered(batch.id, 2);
    expect(await lineRows(batch.id)).toHaveLength(3);
  });

  it('bills each line once when two downloads race', async () => {
    const batch = await completedBatch();
    const answers = await Promise.all([download(batch.id), download(batch.id)]);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
    await Promise.all(answers.map((answer) => answer.arrayBuffer()));
    // Both downloads are metered, so both finished billing: still one row per line.
    await downloadsMetered(batch.id, 2);
    expect(await lineRows(batch.id)).toHaveLength(3);
  });

  it('bills each line once across replicas sharing the store', async () => {
    const batch = await completedBatch();
    const replica = await startTestGateway({ db: fixture.gateway.deps.db });
    try {
      const replicaUrl = await replica.app.listen({ port: 0, host: '127.0.0.1' });
      const [here, there] = await Promise.all([
        download(batch.id),
        fetch(`${replicaUrl}/v1/batches/${batch.id}/output`, { headers: fixture.auth }),
      ]);
      expect([here.status, there.status]).toEqual([200, 200]);
      expect(await there.text()).toBe(await here.text());
      // One download on each replica, each metered (and its lines billed) by the replica that served it.
      await Promise.all([downloadsMetered(batch.id, 1), downloadsMetered(batch.id, 1, replica)]);
      await replica.deps.spendWriter.drain();
      expect(await lineRows(batch.id)).toHaveLength(3);
    } finally {
      await replica.close();
    }
  });

  it('bills the whole lines of a download cut short, and the rest on the next download', async () => {
    const batch = await completedBatch();
    const outputFileId = batch.output_file_id ?? '';
    const whole = await (await sdk.files.content(outputFileId)).text();
    // The provider's connection fails half-way through the file: the lines before the cut arrived whole.
    fixture.openai.respondWhen(
      (request) => request.path === `/v1/files/${outputFileId}/content`,
      { dropConnection: { afterEvents: 1 } },
      1,
    );
    const cut = await download(batch.id);
    await expect(cut.arrayBuffer()).rejects.toThrow();
    const wholeLinesBeforeCut = whole.slice(0, Math.floor(whole.length / 2)).split('\n').length - 1;
    expect(wholeLinesBeforeCut).toBeGreaterThan(0);
    expect(wholeLinesBeforeCut).toBeLessThan(3);
    await downloadsMetered(batch.id, 1);
    expect(await lineRows(batch.id)).toHaveLength(wholeLinesBeforeCut);

    const again = await download(batch.id);
    expect(await again.text()).toBe(whole);
    await downloadsMetered(batch.id, 2);
    expect(await lineRows(batch.id)).toHaveLength(3);
  });

  it('answers another key’s batch and its files as unknown: 404 on retrieve, cancel, output and file content, and bills nothing', async () => {
    const batch = await completedBatch();
    const other = await mintClientKey(fixture.gateway.app, { user: 'grace@example.com', team: 'compilers' });
    const otherSdk = new OpenAI({ apiKey: other.key, baseURL: `${baseUrl}/v1`, maxRetries: 0 });
    await expect(otherSdk.batches.retrieve(batch.id)).rejects.toMatchObject({ status: 404 });
    await expect(otherSdk.batches.cancel(batch.id)).rejects.toMatchObject({ status: 404 });
    // The batch's files are its creator's: the output (content included) and the uploaded input are not found.
    const outputFileId = batch.output_file_id ?? '';
    await expect(otherSdk.files.content(outputFileId)).rejects.toMatchObject({ status: 404 });
    await expect(otherSdk.files.retrieve(batch.input_file_id)).rejects.toMatchObject({ status: 404 });
    await expect(otherSdk.files.delete(batch.input_file_id)).rejects.toMatchObject({ status: 404 });
    const othersList = (await otherSdk.files.list()).data.map((entry) => entry.id);
    expect(othersList).not.toContain(outputFileId);
    expect(othersList).not.toContain(batch.input_file_id);
    expect((await sdk.files.list()).data.map((entry) => entry.id)).toEqual(
      expect.arrayContaining([outputFileId, batch.input_file_id]),
    );
    expect((await sdk.files.retrieve(batch.input_file_id)).id).toBe(batch.input_file_id);
    // The provider's list holds every batch of the account; each key sees its own.
    expect((await otherSdk.batches.list()).data.map((entry) => entry.id)).not.toContain(batch.id);
    expect((await sdk.batches.list()).data.map((entry) => entry.id)).toContain(batch.id);
    expect(
      fixture.openai.requests.filter((request) => request.path === '/v1/batches' && request.method === 'GET').length,
    ).toBeGreaterThanOrEqual(2);
    const output = await download(batch.id, other.key);
    expect(output.status).toBe(404);
    expect(((await output.json()) as { error: { message: string } }).error.message).toBe(
      `No batch found with id '${batch.id}'.`,
    );
    const unknown = await download('batch_does_not_exist');
    expect(unknown.status).toBe(404);
    expect(await lineRows(batch.id)).toHaveLength(0);
  });

  it('retrieves a batch from the provider that runs it, cancels and lists it, and refuses its unfinished output with 409', async () => {
    const file = await sdk.files.create({
      file: await toFile(Buffer.from(`${requests[0]}\n`), 'one.jsonl'),
      purpose: 'batch',
    });
    const batch = await sdk.batches.create({
      input_file_id: file.id,
      endpoint: '/v1/chat/completions',
      completion_window: '24h',
    });
    const early = await download(batch.id);
    expect(early.status).toBe(409);
    expect(((await early.json()) as { error: { code: string } }).error.code).toBe('batch_output_not_ready');
    expect((await sdk.batches.cancel(batch.id)).status).toBe('cancelling');
    // A known batch is asked of the provider that runs it, whatever the request would otherwise route to.
    const elsewhere = await sdk.batches.retrieve(batch.id, { headers: { 'x-gw-provider': 'anthropic' } });
    expect(elsewhere).toMatchObject({ id: batch.id, status: 'cancelled' });
    const listed = await sdk.batches.list();
    expect(listed.data.map((entry) => entry.id)).toContain(batch.id);
  });

  it('refuses files and batches routed to a provider outside the OpenAI family with a clear 400', async () => {
    const anthropicRouted = new OpenAI({
      apiKey: fixture.clientKey,
      baseURL: `${baseUrl}/v1`,
      maxRetries: 0,
      defaultHeaders: { 'x-gw-provider': 'anthropic' },
    });
    const before = fixture.anthropic.requests.length;
    const refusal = await anthropicRouted.batches
      .create({ input_file_id: 'file-x', endpoint: '/v1/chat/completions', completion_window: '24h' })
      .catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(OpenAI.BadRequestError);
    expect(refusal).toMatchObject({ status: 400, code: 'unsupported_by_provider' });
    expect((refusal as Error).message).toContain('OpenAI-family providers only');
    await expect(
      anthropicRouted.files.create({ file: await toFile(Buffer.from('{}\n'), 'x.jsonl'), purpose: 'batch' }),
    ).rejects.toMatchObject({ status: 400 });
    expect(fixture.anthropic.requests.length).toBe(before);
  });
});
