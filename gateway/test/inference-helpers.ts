import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import type { ManualClock } from '@gw/platform';
import {
  startAnthropicSimulator,
  startOpenAiSimulator,
  type OpenAiSimulatorOptions,
  type SimulatorHandle,
} from '@gw/testkit';
import { adminHeaders, mintClientKey, startTestGateway, type TestGateway } from './helpers.js';

export const openAiServerKey = 'sk-server-held-openai-0000';
export const anthropicServerKey = 'sk-ant-server-held-0000';

export interface InferenceFixture {
  gateway: TestGateway;
  openai: SimulatorHandle;
  anthropic: SimulatorHandle;
  clientKey: string;
  auth: Record<string, string>;
  close(): Promise<void>;
}

/** A gateway with an OpenAI-style provider `openai` (default) and an Anthropic-style provider `anthropic`. */
export async function startInferenceFixture(
  options: { env?: Record<string, string>; openai?: Omit<OpenAiSimulatorOptions, 'apiKey'>; clock?: ManualClock } = {},
): Promise<InferenceFixture> {
  const openai = await startOpenAiSimulator({ ...options.openai, apiKey: openAiServerKey });
  const anthropic = await startAnthropicSimulator({ apiKey: anthropicServerKey });
  const gateway = await startTestGateway({
    ...(options.env ? { env: options.env } : {}),
    ...(options.clock ? { clock: options.clock } : {}),
  });
  const put = async (slug: string, body: Record<string, unknown>) => {
    const response = await gateway.app.inject({
      method: 'PUT',
      url: `/admin/v1/providers/${slug}/key`,
      headers: adminHeaders,
      payload: body,
    });
    if (response.statusCode !== 200) throw new Error(`provider ${slug}: ${response.statusCode} ${response.body}`);
  };
  await put('openai', { apiKey: openAiServerKey, baseUrl: openai.baseURL });
  await put('anthropic', { apiKey: anthropicServerKey, baseUrl: anthropic.url });
  await gateway.app.inject({
    method: 'PUT',
    url: '/admin/v1/routing',
    headers: adminHeaders,
    payload: { defaultProvider: 'openai' },
  });
  const { key } = await mintClientKey(gateway.app, { user: 'ada@example.com', team: 'compilers' });
  return {
    gateway,
    openai,
    anthropic,
    clientKey: key,
    auth: { authorization: `Bearer ${key}` },
    close: async () => {
      await gateway.close();
      await openai.close();
      await anthropic.close();
    },
  };
}

/** The fixture's gateway on an ephemeral port, with the official SDKs pointed at it (their own retries off). */
export async function listenWithSdks(
  fixture: InferenceFixture,
): Promise<{ baseUrl: string; openai: OpenAI; anthropic: Anthropic }> {
  const baseUrl = await fixture.gateway.app.listen({ port: 0, host: '127.0.0.1' });
  return {
    baseUrl,
    openai: new OpenAI({ apiKey: fixture.clientKey, baseURL: `${baseUrl}/v1`, maxRetries: 0 }),
    anthropic: new Anthropic({ apiKey: fixture.clientKey, baseURL: baseUrl, maxRetries: 0 }),
  };
}

export { spendRowOf } from './spend-signals.js';

/** Flush buffered spend rows and read them back. */
export async function spendRows(gateway: TestGateway) {
  await gateway.deps.spendWriter.drain();
  const { rows } = await gateway.deps.db.query<Record<string, unknown>>('SELECT * FROM gw_spend ORDER BY ts, id');
  return rows;
}

/** Every row of every table in the gateway's schema, as one string: for "this never reaches the store" checks. */
export async function everyStoredRow(gateway: TestGateway): Promise<string> {
  await gateway.deps.spendWriter.drain();
  const { rows: tables } = await gateway.deps.db.query<{ table_name: string }>(
    "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name",
  );
  const dumps: string[] = [];
  for (const { table_name: table } of tables) {
    const { rows } = await gateway.deps.db.query(`SELECT * FROM "${table.replaceAll('"', '""')}"`);
    dumps.push(`${table}: ${JSON.stringify(rows)}`);
  }
  return dumps.join('\n');
}

/** Parse an SSE body into `{event, data}` frames. */
export function sseFrames(body: string): Array<{ event?: string; data: string }> {
  return body
    .split(/\n\n/)
    .filter((block) => block.trim().length > 0)
    .map((block) => {
      const frame: { event?: string; data: string } = { data: '' };
      const data: string[] = [];
      for (const line of block.split('\n')) {
        if (line.startsWith('event:')) frame.event = line.slice(6).trim();
        if (line.startsWith('data:')) data.push(line.slice(5).trimStart());
      }
      frame.data = data.join('\n');
      return frame;
    });
}
