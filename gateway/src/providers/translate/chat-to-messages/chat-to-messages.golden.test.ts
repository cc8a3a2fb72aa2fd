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
import { chatErrorFromMessagesError } from './error.js';
import { translateChatRequestToMessages } from './request.js';
import { translateMessagesResponseToChat } from './response.js';
import { createChatToMessagesStreamTranslator } from './stream.js';

const clock = { now: () => Date.UTC(2026, 0, 15, 12, 0, 0) };
const defaultContext: TranslationContext = { stream: false, includeUsage: false, requestModel: 'claude-sonnet-4-5' };

function contextOf(testCase: GoldenCase): TranslationContext {
  return { ...defaultContext, ...(testCase.json('context.json') as Partial<TranslationContext> | undefined) };
}

describe('chat-completions client → Messages provider, golden files', () => {
  for (const testCase of loadGoldenCases('chat-to-messages')) {
    it(testCase.name, () => {
      switch (testCase.kind) {
        case 'request': {
          const { body } = translateChatRequestToMessages(
            testCase.json('input.json'),
            testCase.json('options.json') ?? {},
          );
          expect(wire(body)).toStrictEqual(testCase.json('expected.json'));
          break;
        }
        case 'response': {
          const { body, usage } = translateMessagesResponseToChat(testCase.json('input.json'), contextOf(testCase), {
            clock,
          });
          expect(wire(body)).toStrictEqual(testCase.json('expected.json'));
          expect(usage).toStrictEqual(testCase.json('usage.json'));
          break;
        }
        case 'stream': {
          const translator = createChatToMessagesStreamTranslator(contextOf(testCase), { clock });
          expect(runRecordedStream(translator, testCase.text('input.sse') ?? '')).toBe(testCase.text('expected.sse'));
          expect(translator.usage()).toStrictEqual(testCase.json('usage.json'));
          break;
        }
        case 'error': {
          const { status, body } = testCase.json('input.json') as { status: number; body: unknown };
          expect(chatErrorFromMessagesError(body, status)).toStrictEqual(testCase.json('expected.json'));
          break;
        }
      }
    });
  }

  for (const testCase of loadGoldenCases('chat-to-messages').filter((candidate) => candidate.kind === 'stream')) {
    it(`${testCase.name} gives the same events however the upstream bytes are split`, () => {
      const recorded = testCase.text('input.sse') ?? '';
      const expected = testCase.text('expected.sse');
      fc.assert(
        fc.property(fc.array(fc.nat({ max: recorded.length * 2 }), { maxLength: 30 }), (cuts) => {
          expect(
            runRecordedStreamInChunks(
              createChatToMessagesStreamTranslator(contextOf(testCase), { clock }),
              recorded,
              cuts,
            ),
          ).toBe(expected);
        }),
        { numRuns: 50 },
      );
    });
  }
});
