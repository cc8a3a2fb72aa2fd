import { request } from 'undici';
import { assertSafeUpstreamUrl } from '../../providers/ssrf-guard.js';
import { guardrailVerdict, type GuardrailCall, type GuardrailVerdict } from './guardrail.schema.js';

export interface HookTarget {
  url: string;
  timeoutMs: number;
  bearer: string | null;
}

/** Why a hook gave no verdict: it is then judged by its fail mode. */
export class GuardrailHookFailure extends Error {
  constructor(readonly reason: 'timeout' | 'unreachable' | 'bad_status' | 'bad_answer' | 'refused_url') {
    super(`guardrail hook ${reason}`);
  }
}

/** Largest verdict read from a hook: a verdict is a few fields, anything bigger is not one. */
const maxVerdictBytes = 16 * 1024;

/** One hook call: POST the call as JSON, read a verdict within the hook's timeout (the address checked every time). */
export async function callGuardrailHook(
  target: HookTarget,
  call: GuardrailCall,
  options: { allowPrivate: boolean },
): Promise<GuardrailVerdict> {
  try {
    await assertSafeUpstreamUrl(target.url, { allowPrivate: options.allowPrivate });
  } catch {
    throw new GuardrailHookFailure('refused_url');
  }
  const signal = AbortSignal.timeout(target.timeoutMs);
  let text: string;
  try {
    const response = await request(target.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(target.bearer ? { authorization: `Bearer ${target.bearer}` } : {}),
      },
      body: JSON.stringify(call),
      signal,
    });
    if (response.statusCode !== 200) {
      await response.body.dump();
      throw new GuardrailHookFailure('bad_status');
    }
    text = await readBounded(response.body);
  } catch (error) {
    if (error instanceof GuardrailHookFailure) throw error;
    throw new GuardrailHookFailure(signal.aborted ? 'timeout' : 'unreachable');
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new GuardrailHookFailure('bad_answer');
  }
  const verdict = guardrailVerdict.safeParse(parsed);
  if (!verdict.success) throw new GuardrailHookFailure('bad_answer');
  return verdict.data;
}

async function readBounded(body: AsyncIterable<Buffer>): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > maxVerdictBytes) throw new GuardrailHookFailure('bad_answer');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}
