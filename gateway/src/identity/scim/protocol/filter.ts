import {
  comparisonOperators,
  parseFilterPath,
  type ComparisonOperator,
  type FilterPath,
  type FilterValue,
  type ScimFilter,
} from './filter-ast.js';
import { invalidFilter, tokenize, type FilterToken } from './filter-tokens.js';

export type { ScimFilter } from './filter-ast.js';

export const maxFilterLength = 4000;
/** Nesting of parentheses, `not` and value paths; deeper than any real filter, shallow enough for the call stack. */
export const maxFilterDepth = 32;

// RFC 7159 number; the grammar's compValue takes JSON's literals.
const jsonNumber = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/**
 * Parses the `filter` query parameter by RFC 7644's grammar, by recursive descent over tokens:
 *
 *     filter     = orExpr
 *     orExpr     = andExpr *("or" andExpr)
 *     andExpr    = unary *("and" unary)
 *     unary      = "not" "(" filter ")" / "(" filter ")" / valuePath / attrExp
 *     valuePath  = attrPath "[" valFilter "]" ["." subAttr compareOp compValue]
 *     attrExp    = attrPath "pr" / attrPath compareOp compValue
 *
 * so `not` binds tighter than `and`, which binds tighter than `or`. Keywords, operators and attribute names match
 * without case; literals are JSON's (`true`, `false` and `null` in any case, as ABNF literals are). The trailing
 * `.subAttr` after a value path is not in the RFC's filter grammar but identity providers send it
 * (`emails[type eq "work"].value eq "…"`); it reads as one value satisfying both. Anything else is 400 `invalidFilter`.
 */
export function parseScimFilter(text: string): ScimFilter {
  if (text.length > maxFilterLength) throw invalidFilter(`The filter is longer than ${maxFilterLength} characters.`);
  const parser = new FilterParser(tokenize(text));
  if (parser.atEnd()) throw invalidFilter('The filter is empty.');
  const filter = parser.filter(0, false);
  parser.expectEnd();
  return filter;
}

class FilterParser {
  private position = 0;

  constructor(private readonly tokens: readonly FilterToken[]) {}

  atEnd(): boolean {
    return this.position >= this.tokens.length;
  }

  expectEnd(): void {
    const extra = this.peek();
    if (extra)
      throw invalidFilter(
        `Unexpected "${extra.text}" at character ${extra.at + 1}; combine expressions with and / or.`,
      );
  }

  /** `inValue`: inside `[...]`, where paths are sub-attributes of the value and value paths cannot nest. */
  filter(depth: number, inValue: boolean): ScimFilter {
    if (depth > maxFilterDepth) throw invalidFilter(`The filter nests deeper than ${maxFilterDepth} levels.`);
    let left = this.and(depth, inValue);
    while (this.keyword('or')) left = { kind: 'or', left, right: this.and(depth, inValue) };
    return left;
  }

  private and(depth: number, inValue: boolean): ScimFilter {
    let left = this.unary(depth, inValue);
    while (this.keyword('and')) left = { kind: 'and', left, right: this.unary(depth, inValue) };
    return left;
  }

  private unary(depth: number, inValue: boolean): ScimFilter {
    const token = this.next('an expression');
    if (token.kind === 'word' && token.text.toLowerCase() === 'not') {
      if (this.peek()?.kind !== '(')
        throw invalidFilter(`"not" must be followed by a parenthesised expression, at character ${token.at + 1}.`);
      return { kind: 'not', filter: this.group(depth, inValue) };
    }
    if (token.kind === '(') {
      this.position -= 1;
      return this.group(depth, inValue);
    }
    if (token.kind !== 'word')
      throw invalidFilter(`Expected an attribute at character ${token.at + 1}, found "${token.text}".`);
    const path = pathOf(token);
    if (this.peek()?.kind === '[') return this.valuePath(path, depth, inValue);
    return this.attributeExpression(path);
  }

  private group(depth: number, inValue: boolean): ScimFilter {
    this.expect('(');
    const inner = this.filter(depth + 1, inValue);
    this.expect(')');
    return inner;
  }

  private valuePath(path: FilterPath, depth: number, inValue: boolean): ScimFilter {
    if (inValue) throw invalidFilter(`A value filter cannot hold another one ("${path.text}[").`);
    if (path.subAttribute !== null)
      throw invalidFilter(
        `The value filter must follow a multi-valued attribute, not the sub-attribute "${path.text}".`,
      );
    this.expect('[');
    const inner = this.filter(depth + 1, true);
    const close = this.expect(']');
    const following = this.peek();
    // `emails[type eq "work"].value eq "…"`: the word after `]` starts with the dot, with no space before it.
    if (following?.kind === 'word' && !following.spaced && following.text.startsWith('.')) {
      this.position += 1;
      const subPath = pathOf({ ...following, text: following.text.slice(1) });
      if (subPath.schema !== null || subPath.subAttribute !== null)
        throw invalidFilter(`"${following.text}" after "${path.text}[…]" must name one sub-attribute.`);
      return {
        kind: 'valuePath',
        path,
        filter: { kind: 'and', left: inner, right: this.attributeExpression(subPath) },
      };
    }
    if (following && !following.spaced && following.kind !== ')' && following.kind !== ']')
      throw invalidFilter(`Unexpected "${following.text}" right after "]" at character ${close.at + 1}.`);
    return { kind: 'valuePath', path, filter: inner };
  }

  private attributeExpression(path: FilterPath): ScimFilter {
    const operatorToken = this.next(`an operator after "${path.text}"`);
    const operator = operatorToken.kind === 'word' ? operatorToken.text.toLowerCase() : '';
    if (!operatorToken.spaced) throw invalidFilter(`Put a space between "${path.text}" and its operator.`);
    if (operator === 'pr') return { kind: 'present', path };
    if (!isComparison(operator))
      throw invalidFilter(
        `"${operatorToken.text}" is not a filter operator; use eq, ne, co, sw, ew, gt, ge, lt, le or pr.`,
      );
    const valueToken = this.next(`a value after "${path.text} ${operator}"`);
    if (!valueToken.spaced) throw invalidFilter(`Put a space between "${operator}" and its value.`);
    const value = literalOf(valueToken);
    checkOperands(path, operator, value);
    return { kind: 'compare', path, operator, value };
  }

  private keyword(name: 'and' | 'or'): boolean {
    const token = this.peek();
    if (token?.kind !== 'word' || token.text.toLowerCase() !== name) return false;
    if (!token.spaced) throw invalidFilter(`Put a space before "${token.text}" at character ${token.at + 1}.`);
    this.position += 1;
    return true;
  }

  private peek(): FilterToken | undefined {
    return this.tokens[this.position];
  }

  private next(what: string): FilterToken {
    const token = this.tokens[this.position];
    if (!token) throw invalidFilter(`The filter ends where ${what} was expected.`);
    this.position += 1;
    return token;
  }

  private expect(kind: '(' | ')' | '[' | ']'): FilterToken {
    const token = this.next(`"${kind}"`);
    if (token.kind !== kind)
      throw invalidFilter(`Expected "${kind}" at character ${token.at + 1}, found "${token.text}".`);
    return token;
  }
}

function isComparison(operator: string): operator is ComparisonOperator {
  return (comparisonOperators as readonly string[]).includes(operator);
}

function pathOf(token: { text: string; at: number }): FilterPath {
  const path = parseFilterPath(token.text);
  if (!path) throw invalidFilter(`"${token.text}" at character ${token.at + 1} is not an attribute path.`);
  return path;
}

function literalOf(token: FilterToken): FilterValue {
  if (token.kind === 'string') return token.value;
  const text = token.kind === 'word' ? token.text : '';
  const lowered = text.toLowerCase();
  if (lowered === 'true') return true;
  if (lowered === 'false') return false;
  if (lowered === 'null') return null;
  if (jsonNumber.test(text)) return Number(text);
  throw invalidFilter(`The value ${token.text} is not a double-quoted string, a number, true, false or null.`);
}

/** RFC 7644: `co`, `sw` and `ew` compare strings; ordering a boolean or null means nothing. */
function checkOperands(path: FilterPath, operator: ComparisonOperator, value: FilterValue): void {
  if ((operator === 'co' || operator === 'sw' || operator === 'ew') && typeof value !== 'string') {
    throw invalidFilter(`"${path.text} ${operator}" compares with a string.`);
  }
  if (
    (operator === 'gt' || operator === 'ge' || operator === 'lt' || operator === 'le') &&
    (typeof value === 'boolean' || value === null)
  ) {
    throw invalidFilter(`"${path.text} ${operator}" cannot order by ${String(value)}.`);
  }
}
