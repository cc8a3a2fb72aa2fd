import { ScimError } from './scim-error.js';

/**
 * The filter's words: a `word` is an attribute path, an operator, a keyword or a number/true/false/null literal; a
 * `string` is a JSON string (already decoded); the rest are brackets. `spaced` records whether whitespace came before
 * the token, since the grammar separates a comparison's parts with a space.
 */
export type FilterToken =
  | { kind: 'word'; text: string; at: number; spaced: boolean }
  | { kind: 'string'; value: string; text: string; at: number; spaced: boolean }
  | { kind: '(' | ')' | '[' | ']'; text: string; at: number; spaced: boolean };

// A word runs until whitespace, a bracket or a quote: attribute paths (URNs with their colons and dots, `$ref`),
// operators and literals.
const word = /[^\s()[\]"]+/y;
// RFC 7644 takes string literals from JSON (RFC 7159): no raw control characters, backslash escapes only.
// eslint-disable-next-line no-control-regex -- the control characters are exactly what JSON strings refuse
const jsonString = /"(?:[^"\\\u0000-\u001f]|\\.)*"/y;
const whitespace = /\s+/y;

export function invalidFilter(reason: string): ScimError {
  return new ScimError(400, reason, 'invalidFilter');
}

/** Splits filter text into tokens; an unterminated or badly escaped string is `invalidFilter`. */
export function tokenize(text: string): FilterToken[] {
  const tokens: FilterToken[] = [];
  let at = 0;
  while (at < text.length) {
    whitespace.lastIndex = at;
    const spaced = whitespace.test(text);
    if (spaced) at = whitespace.lastIndex;
    if (at >= text.length) break;
    const character = text.charAt(at);
    if (character === '(' || character === ')' || character === '[' || character === ']') {
      tokens.push({ kind: character, text: character, at, spaced });
      at += 1;
    } else if (character === '"') {
      tokens.push(stringToken(text, at, spaced));
      at += tokens[tokens.length - 1]?.text.length ?? 1;
    } else {
      word.lastIndex = at;
      word.test(text);
      tokens.push({ kind: 'word', text: text.slice(at, word.lastIndex), at, spaced });
      at = word.lastIndex;
    }
  }
  return tokens;
}

function stringToken(text: string, at: number, spaced: boolean): FilterToken {
  jsonString.lastIndex = at;
  if (!jsonString.test(text))
    throw invalidFilter(
      `The string starting at character ${at + 1} is not terminated or holds a raw control character.`,
    );
  const literal = text.slice(at, jsonString.lastIndex);
  try {
    return { kind: 'string', value: JSON.parse(literal) as string, text: literal, at, spaced };
  } catch {
    throw invalidFilter(`The string ${literal} has an escape JSON does not allow.`);
  }
}
