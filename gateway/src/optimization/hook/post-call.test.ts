import { describe, expect, it } from 'vitest';
import { createLogger } from '@gw/platform';
import type { OptimizerClient } from './optimizer-client.js';
import { runPostCall } from './post-call.js';
import type { Optimization } from './pre-call-hook.js';

const logger = createLogger({ name: 'post-call-test', level: 'silent' });
const applied = { status: 'applied', cache: { eligible: false, key: null } } as unknown as Optimization;
const message = { id: 'msg_1', type: 'message', role: 'assistant', content: [{ type: 'text', text: 'hi' }] };

function optimizerAnswering(response: Record<string, unknown>): OptimizerClient {
  return {
    optimizeResponse: async () => ({
      protocolVersion: 1,
      response,
      decisions: [{ kind: 'tool_arguments_minify', summary: 's', estimatedTokensSaved: 3 }],
    }),
  } as unknown as OptimizerClient;
}

describe('post-call hook', () => {
  const input = (endpoint: string) => ({
    endpoint,
    optimization: applied,
    request: undefined,
    response: message,
    metadata: { tenant: 'other' },
    user: 'ada',
    team: 't',
    sessionId: null,
  });

  it('keeps the provider answer when the rewrite is not in the client wire format', async () => {
    expect(await runPostCall(optimizerAnswering({ garbage: true }), logger, input('/v1/messages'))).toBeNull();
    expect(
      await runPostCall(
        optimizerAnswering({ ...message, object: 'chat.completion' }),
        logger,
        input('/v1/chat/completions'),
      ),
    ).toBeNull();
    const rewritten = { ...message, content: [{ type: 'text', text: 'hi!' }] };
    expect(await runPostCall(optimizerAnswering(rewritten), logger, input('/v1/messages'))).toEqual(rewritten);
  });
});
