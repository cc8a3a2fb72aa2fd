import OpenAI, { toFile } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SimulatorHandle } from '../core/simulator.js';
import { startOpenAiSimulator } from './openai-simulator.js';

const KEY = 'sk-batches-test';
const line = (customId: string, content: string) =>
  JSON.stringify({
    custom_id: customId,
    method: 'POST',
    url: '/v1/chat/completions',
    body: { model: 'gpt-4o-mini', messages: [{ role: 'user', content }] },
  });

describe('files and batches driven by the official openai SDK', () => {
  let simulator: SimulatorHandle;
  let client: OpenAI;

  beforeAll(async () => {
    simulator = await startOpenAiSimulator({ apiKey: KEY });
    client = new OpenAI({ apiKey: KEY, baseURL: simulator.baseURL, maxRetries: 0 });
  });
  afterAll(() => simulator.close());

  it('runs a batch from upload to a JSONL output with one answer and its usage per request', async () => {
    const file = await client.files.create({
      file: await toFile(Buffer.from(`${line('a', 'hello')}\n${line('b', 'hello there, again')}\n`), 'in.jsonl'),
      purpose: 'batch',
    });
    expect(file).toMatchObject({ object: 'file', purpose: 'batch', filename: 'in.jsonl' });
    expect((await client.files.list()).data.map((entry) => entry.id)).toContain(file.id);

    const created = await client.batches.create({
      input_file_id: file.id,
      endpoint: '/v1/chat/completions',
      completion_window: '24h',
      metadata: { run: '1' },
    });
    expect(created).toMatchObject({
      object: 'batch',
      status: 'validating',
      output_file_id: null,
      metadata: { run: '1' },
    });
    expect((await client.batches.retrieve(created.id)).status).toBe('in_progress');
    const done = await client.batches.retrieve(created.id);
    expect(done).toMatchObject({ status: 'completed', request_counts: { total: 2, completed: 2, failed: 0 } });

    const output = await (await client.files.content(done.output_file_id ?? '')).text();
    const lines = output
      .trim()
      .split('\n')
      .map(
        (text) =>
          JSON.parse(text) as {
            custom_id: string;
            response: {
              status_code: number;
              body: { object: string; usage: { prompt_tokens: number; completion_tokens: number } };
            };
          },
      );
    expect(lines.map((entry) => entry.custom_id)).toEqual(['a', 'b']);
    for (const entry of lines) {
      expect(entry.response.status_code).toBe(200);
      expect(entry.response.body.object).toBe('chat.completion');
      expect(entry.response.body.usage.prompt_tokens).toBeGreaterThan(0);
    }
    expect(lines[1]?.response.body.usage.prompt_tokens).toBeGreaterThan(
      lines[0]?.response.body.usage.prompt_tokens ?? 0,
    );
    expect((await client.batches.list()).data[0]?.id).toBe(created.id);
  });

  it('cancels a running batch and refuses what the real API refuses', async () => {
    const file = await client.files.create({
      file: await toFile(Buffer.from(`${line('a', 'x')}\n`), 'in.jsonl'),
      purpose: 'batch',
    });
    const batch = await client.batches.create({
      input_file_id: file.id,
      endpoint: '/v1/chat/completions',
      completion_window: '24h',
    });
    expect((await client.batches.cancel(batch.id)).status).toBe('cancelling');
    expect((await client.batches.retrieve(batch.id)).status).toBe('cancelled');
    await expect(client.batches.cancel(batch.id)).rejects.toMatchObject({ status: 409 });
    await expect(client.batches.retrieve('batch_missing')).rejects.toBeInstanceOf(OpenAI.NotFoundError);
    await expect(
      client.batches.create({
        input_file_id: 'file-missing',
        endpoint: '/v1/chat/completions',
        completion_window: '24h',
      }),
    ).rejects.toBeInstanceOf(OpenAI.NotFoundError);
    await expect(
      client.files.create({ file: await toFile(Buffer.from('not json\n'), 'bad.jsonl'), purpose: 'batch' }),
    ).rejects.toBeInstanceOf(OpenAI.BadRequestError);
    expect((await client.files.delete(file.id)).deleted).toBe(true);
  });
});
