import { describe, expect, it } from 'vitest';
import { chatErrorFromMessagesError } from './chat-to-messages/error.js';
import { translateChatRequestToMessages } from './chat-to-messages/request.js';
import { translateMessagesResponseToChat } from './chat-to-messages/response.js';
import { createChatToMessagesStreamTranslator } from './chat-to-messages/stream.js';
import { AnthropicStreamUsageTracker, extractAnthropicUsage } from './extract-anthropic-usage.js';
import { extractOpenAiUsage, OpenAiStreamUsageTracker } from './extract-openai-usage.js';
import { loadGoldenCases, runStream, type GoldenKind } from './golden-cases.js';
import { messagesErrorFromChatError } from './messages-to-chat/error.js';
import { translateMessagesRequestToChat } from './messages-to-chat/request.js';
import { translateChatResponseToMessages } from './messages-to-chat/response.js';
import { createMessagesToChatStreamTranslator } from './messages-to-chat/stream.js';
import { parseSse, type SseFrame } from './sse.js';
import { checkTranslatorConformance, type ConformanceSubject } from './translator.conformance.js';
import type { StreamTranslator, StreamUsageTracker, TranslationContext } from './translator.js';

const clock = { now: () => Date.UTC(2026, 0, 15, 12, 0, 0) };
const toClaude: TranslationContext = { stream: true, includeUsage: true, requestModel: 'claude-sonnet-4-5' };
const toGpt: TranslationContext = { stream: true, includeUsage: true, requestModel: 'gpt-4.1' };

/** Golden inputs of one kind; stream inputs become their list of events (parsed JSON, or the `[DONE]` marker). */
function samples(direction: string, kind: GoldenKind): unknown[] {
  return loadGoldenCases(direction)
    .filter((testCase) => testCase.kind === kind)
    .map((testCase) => {
      if (kind === 'stream')
        return parseSse(testCase.text('input.sse') ?? '').map(({ data }) =>
          data === '[DONE]' ? data : (JSON.parse(data) as unknown),
        );
      const input = testCase.json('input.json');
      return kind === 'error' ? (input as { body: unknown }).body : input;
    });
}

function toFrames(events: unknown, named: boolean): SseFrame[] {
  return (events as unknown[]).map((event) => {
    if (event === '[DONE]') return { data: '[DONE]' };
    const type = (event as { type?: unknown }).type;
    return named && typeof type === 'string'
      ? { event: type, data: JSON.stringify(event) }
      : { data: JSON.stringify(event) };
  });
}

function streamOutput(translator: StreamTranslator, frames: SseFrame[]): unknown {
  return { wire: runStream(translator, frames), usage: translator.usage() };
}

function tracked(tracker: StreamUsageTracker, frames: SseFrame[]): unknown {
  for (const frame of frames) tracker.observe(frame);
  return tracker.usage();
}

const subjects: ConformanceSubject[] = [
  {
    name: 'chat-to-messages request',
    samples: samples('chat-to-messages', 'request'),
    translate: (input) => translateChatRequestToMessages(input),
  },
  {
    name: 'chat-to-messages response',
    samples: samples('chat-to-messages', 'response'),
    translate: (input) => translateMessagesResponseToChat(input, toClaude, { clock }),
  },
  {
    name: 'chat-to-messages stream',
    samples: samples('chat-to-messages', 'stream'),
    translate: (events) =>
      streamOutput(createChatToMessagesStreamTranslator(toClaude, { clock }), toFrames(events, true)),
  },
  {
    name: 'chat-to-messages error',
    samples: samples('chat-to-messages', 'error'),
    translate: (body) => chatErrorFromMessagesError(body, 500),
  },
  {
    name: 'messages-to-chat request',
    samples: samples('messages-to-chat', 'request'),
    translate: (input) => translateMessagesRequestToChat(input),
  },
  {
    name: 'messages-to-chat response',
    samples: samples('messages-to-chat', 'response'),
    translate: (input) => translateChatResponseToMessages(input, toGpt),
  },
  {
    name: 'messages-to-chat stream',
    samples: samples('messages-to-chat', 'stream'),
    translate: (events) => streamOutput(createMessagesToChatStreamTranslator(toGpt), toFrames(events, false)),
  },
  {
    name: 'messages-to-chat error',
    samples: samples('messages-to-chat', 'error'),
    translate: (body) => messagesErrorFromChatError(body, 500),
  },
  {
    name: 'passthrough OpenAI JSON usage',
    samples: samples('messages-to-chat', 'response'),
    translate: extractOpenAiUsage,
  },
  {
    name: 'passthrough Anthropic JSON usage',
    samples: samples('chat-to-messages', 'response'),
    translate: extractAnthropicUsage,
  },
  {
    name: 'passthrough OpenAI stream usage',
    samples: samples('messages-to-chat', 'stream'),
    translate: (events) => tracked(new OpenAiStreamUsageTracker(), toFrames(events, false)),
  },
  {
    name: 'passthrough Anthropic stream usage',
    samples: samples('chat-to-messages', 'stream'),
    translate: (events) => tracked(new AnthropicStreamUsageTracker(), toFrames(events, true)),
  },
];

describe('translator conformance', () => {
  for (const subject of subjects) {
    it(`${subject.name}: does not mutate its input, is deterministic and tolerates unknown fields`, () => {
      expect(subject.samples.length).toBeGreaterThan(0);
      expect(checkTranslatorConformance(subject)).toStrictEqual([]);
    });
  }

  it('catches a translator that mutates its input, one that is not deterministic and one that chokes on unknown fields', () => {
    let calls = 0;
    const violations = [
      ...checkTranslatorConformance({
        name: 'mutator',
        samples: [{ a: 1 }],
        translate: (input) => {
          (input as { a: number }).a = 2;
          return null;
        },
      }),
      ...checkTranslatorConformance({
        name: 'clockless',
        samples: [{ a: 1 }],
        translate: () => ({ created: (calls += 1) }),
      }),
      ...checkTranslatorConformance({
        name: 'strict',
        samples: [{ a: 1 }],
        translate: (input) => {
          if (Object.keys(input as object).length > 1) throw new Error('unknown field');
          return input;
        },
      }),
    ];
    expect(violations).toStrictEqual([
      expect.stringContaining('mutator sample 0: writes to its input'),
      'clockless sample 0: output is not deterministic',
      'clockless sample 0: an unknown top-level field changed the output',
      expect.stringContaining('strict sample 0: fails on an unknown top-level field'),
      expect.stringContaining('strict sample 0: fails on unknown fields in nested objects'),
    ]);
  });
});
