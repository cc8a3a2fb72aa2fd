import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  loadGoldenCases,
  runRecordedStream,
  runRecordedStreamInChunks,
  wire,
  type GoldenCase,
} from '../golden-cases.js';
import type { TranslationContext } from '../translator.js';
import { messagesErrorFromChatError } from './error.js';
import { translateMessagesRequestToChat } from './request.js';
import { translateChatResponseToMessages } from './response.js';
import { createMessagesToChatStreamTranslator } from './stream.js';

const defaultContext: TranslationContext = { stream: false, includeUsage: true, requestModel: 'gpt-4.1' };

function contextOf(testCase: GoldenCase): TranslationContext {
  return { ...defaultContext, ...(testCase.json('context.json') as Partial<TranslationContext> | undefined) };
}

describe('Messages client → chat-completions provider, golden files', () => {
  for (const testCase of loadGoldenCases('messages-to-chat')) {
    it(testCase.name, () => {
      switch (testCase.kind) {
        case 'request': {
          const { body } = translateMessagesRequestToChat(
            testCase.json('input.json'),
            testCase.json('options.json') ?? {},
          );
          expect(wire(body)).toStrictEqual(testCase.json('expected.json'));
          break;
        }
        case 'response': {
          const { body, usage } = translateChatResponseToMessages(testCase.json('input.json'), contextOf(testCase));
          expect(wire(body)).toStrictEqual(testCase.json('expected.json'));
          expect(usage).toStrictEqual(testCase.json('usage.json'));
          break;
        }
        case 'stream': {
          const translator = createMessagesToChatStreamTranslator(contextOf(testCase));
          expect(runRecordedStream(translator, testCase.text('input.sse') ?? '')).toBe(testCase.text('expected.sse'));
          expect(translator.usage()).toStrictEqual(testCase.json('usage.json'));
          break;
        }
        case 'error': {
          const { status, body } = testCase.json('input.json') as { status: number; body: unknown };
          expect(messagesErrorFromChatError(body, status)).toStrictEqual(testCase.json('expected.json'));
          break;
        }
      }
    });
  }

  for (const testCase of loadGoldenCases('messages-to-chat').filter((candidate) => candidate.kind === 'stream')) {
    it(`${testCase.name} gives the same events however the upstream bytes are split`, () => {
      const recorded = testCase.text('input.sse') ?? '';
      const expected = testCase.text('expected.sse');
      fc.assert(
        fc.property(fc.array(fc.nat({ max: recorded.length * 2 }), { maxLength: 30 }), (cuts) => {
          expect(
            runRecordedStreamInChunks(createMessagesToChatStreamTranslator(contextOf(testCase)), recorded, cuts),
          ).toBe(expected);
        }),
        { numRuns: 50 },
      );
    });
  }
});
