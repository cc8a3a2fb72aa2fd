import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { SimulatorHandle } from '../core/simulator.js';
import { DEFAULT_FILE_CONTENT_BYTES, fileContentSlice, simulatedFileContent } from './file-content.js';
import { startOpenAiSimulator } from './openai-simulator.js';

const KEY = 'sk-files-test';
// Neither a whole number of lines nor of 16 KiB chunks, so the last line and the last chunk are both partial.
const SIZE = 200_003;

async function readChunks(body: ReadableStream<Uint8Array>): Promise<Uint8Array[]> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of body) chunks.push(chunk);
  return chunks;
}

describe('file content driven by the official openai SDK', () => {
  let simulator: SimulatorHandle;
  let client: OpenAI;

  beforeAll(async () => {
    simulator = await startOpenAiSimulator({ apiKey: KEY, fileContentBytes: SIZE });
    client = new OpenAI({ apiKey: KEY, baseURL: simulator.baseURL, maxRetries: 0 });
  });
  afterAll(() => simulator.close());
  beforeEach(() => simulator.reset());

  it('downloads the configured number of deterministic bytes as an attachment', async () => {
    const response = await client.files.content('file-abc123');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/octet-stream');
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="file-abc123.jsonl"');
    expect(response.headers.get('x-request-id')).toMatch(/^req_/);
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(bytes.length).toBe(SIZE);
    expect(bytes.equals(simulatedFileContent('file-abc123', SIZE))).toBe(true);
    expect(simulator.requests[0]).toMatchObject({
      method: 'GET',
      path: '/v1/files/file-abc123/content',
      headers: { authorization: `Bearer ${KEY}` },
    });
  });

  it('serves 1 MiB by default, its 64 chunks paced by eventDelayMs', async () => {
    const defaults = await startOpenAiSimulator({ apiKey: KEY });
    try {
      const sdk = new OpenAI({ apiKey: KEY, baseURL: defaults.baseURL, maxRetries: 0 });
      defaults.script({ eventDelayMs: 1 });
      const started = performance.now();
      const response = await sdk.files.content('file-default');
      const bytes = Buffer.concat(await readChunks(response.body!));
      expect(performance.now() - started).toBeGreaterThanOrEqual(63);
      expect(bytes.length).toBe(DEFAULT_FILE_CONTENT_BYTES);
      expect(bytes.equals(simulatedFileContent('file-default'))).toBe(true);
    } finally {
      await defaults.close();
    }
  });

  it('applies scripted failures: an error status, and a connection dropped part-way through the body', async () => {
    simulator.script({ status: 500 }, { dropConnection: { afterEvents: 2 } });
    await expect(client.files.content('file-x')).rejects.toBeInstanceOf(OpenAI.InternalServerError);
    const response = await client.files.content('file-x');
    await expect(response.arrayBuffer()).rejects.toThrow();
  });

  it('writes 16 KiB chunks, so a drop after n of them delivers exactly n chunks of the right bytes', async () => {
    simulator.script({ dropConnection: { afterEvents: 3 } });
    const response = await client.files.content('file-cut');
    const received: Uint8Array[] = [];
    const failure = await (async () => {
      for await (const chunk of response.body!) received.push(chunk);
    })().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(Error);
    const bytes = Buffer.concat(received);
    expect(bytes.length).toBe(3 * 16 * 1024);
    expect(bytes.equals(simulatedFileContent('file-cut', 3 * 16 * 1024))).toBe(true);
  });

  it('requires an API key like every other route', async () => {
    const response = await fetch(`${simulator.baseURL}/files/file-x/content`);
    expect(response.status).toBe(401);
  });
});

describe('simulatedFileContent', () => {
  it('is JSONL keyed by the id, with any slice equal to the same range of the whole', () => {
    const whole = simulatedFileContent('file-a', 10_000);
    const lines = whole.toString('utf8').split('\n');
    expect(JSON.parse(lines[0] ?? '')).toEqual({ file: 'file-a', line: '0000000000' });
    expect(JSON.parse(lines[41] ?? '')).toEqual({ file: 'file-a', line: '0000000041' });
    expect(fileContentSlice('file-a', 1234, 5678).equals(whole.subarray(1234, 5678))).toBe(true);
    expect(simulatedFileContent('file-b', 10_000).equals(whole)).toBe(false);
    expect(simulatedFileContent('file-a', 0)).toHaveLength(0);
  });
});
