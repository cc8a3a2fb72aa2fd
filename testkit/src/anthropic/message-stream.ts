import type { Reply } from '../core/reply.js';
import { splitIntoDeltas, splitIntoFragments } from '../core/reply.js';
import { anthropicUsage, stopReason, thinkingSignature } from './messages.js';

function event(type: string, data: string): string {
  return `event: ${type}\ndata: ${data}\n\n`;
}

const PING = event('ping', '{"type": "ping"}');
const MESSAGE_STOP = event('message_stop', '{"type":"message_stop"}');

function delta(index: number, body: string): string {
  return event('content_block_delta', `{"type":"content_block_delta","index":${index},"delta":${body}}`);
}

function blockStart(index: number, block: string): string {
  return event('content_block_start', `{"type":"content_block_start","index":${index},"content_block":${block}}`);
}

function blockStop(index: number): string {
  return event('content_block_stop', `{"type":"content_block_stop","index":${index}}`);
}

/** One content block's events after its start: its deltas and its stop. */
type Block = { start: string; deltas: string[] };

function contentBlocks(reply: Reply): Block[] {
  const blocks: Block[] = [];
  if (reply.thinking !== undefined) {
    blocks.push({
      start: '{"type":"thinking","thinking":"","signature":""}',
      deltas: [
        ...splitIntoDeltas(reply.thinking).map(
          (piece) => `{"type":"thinking_delta","thinking":${JSON.stringify(piece)}}`,
        ),
        `{"type":"signature_delta","signature":${JSON.stringify(thinkingSignature(reply))}}`,
      ],
    });
  }
  if (reply.text !== '') {
    blocks.push({
      start: '{"type":"text","text":""}',
      deltas: splitIntoDeltas(reply.text).map((piece) => `{"type":"text_delta","text":${JSON.stringify(piece)}}`),
    });
  }
  for (const call of reply.toolCalls) {
    // The real API opens tool input with an empty partial_json fragment.
    const fragments = ['', ...splitIntoFragments(call.arguments)];
    blocks.push({
      start: `{"type":"tool_use","id":${JSON.stringify(call.id)},"name":${JSON.stringify(call.name)},"input":{}}`,
      deltas: fragments.map((fragment) => `{"type":"input_json_delta","partial_json":${JSON.stringify(fragment)}}`),
    });
  }
  return blocks;
}

/**
 * The Messages stream: `message_start`, then per block `content_block_start` / `content_block_delta`… /
 * `content_block_stop` (with a `ping` after the first block starts), `message_delta` with the stop reason and
 * final usage, and `message_stop`.
 */
export function messageEvents(reply: Reply, id: string): string[] {
  const usage = anthropicUsage(reply.usage);
  // message_start reports input usage and a provisional output count, as the real API does.
  const startUsage = { ...usage, output_tokens: Math.min(1, reply.usage.outputTokens) };
  const message = {
    id,
    type: 'message',
    role: 'assistant',
    model: reply.model,
    content: [],
    stop_reason: null,
    stop_sequence: null,
    usage: startUsage,
  };
  const events = [event('message_start', JSON.stringify({ type: 'message_start', message }))];
  const blocks = contentBlocks(reply);
  blocks.forEach((block, index) => {
    events.push(blockStart(index, block.start));
    if (index === 0) events.push(PING);
    for (const body of block.deltas) events.push(delta(index, body));
    events.push(blockStop(index));
  });
  if (blocks.length === 0) events.push(PING);
  const finalUsage = {
    input_tokens: reply.usage.inputTokens,
    cache_creation_input_tokens: reply.usage.cacheCreationInputTokens,
    cache_read_input_tokens: reply.usage.cachedInputTokens,
    output_tokens: reply.usage.outputTokens,
  };
  events.push(
    event(
      'message_delta',
      JSON.stringify({
        type: 'message_delta',
        delta: { stop_reason: stopReason(reply), stop_sequence: null },
        usage: finalUsage,
      }),
    ),
  );
  events.push(MESSAGE_STOP);
  return events;
}
