import { stripAnsiForMatching } from './salient-lines.js';

// Words and quoted strings, one linear pass (nested quantifiers here would backtrack on long tokens).
const token = /"[^"\n]*"|[^\s"]+/g;
// A quoted value after a colon (JSON logs: `"method":"GET"`) is data; the keys around it are the shape.
const quotedValue = /:\s*"[^"\n]*"/g;
const variable = /[\d/]/;

/**
 * What a log line looks like with its variable parts masked: every word or quoted string holding a digit or a
 * slash (numbers, ids, times, paths, URLs) becomes `#`, and so does every quoted value after a colon. Lines printed by the same statement share a template;
 * plain words stay, so `incoming request` and `request completed` remain different templates.
 */
export function lineTemplate(line: string): string {
  const words = stripAnsiForMatching(line).replace(quotedValue, ':"#"').match(token);
  if (!words) return '';
  let template = '';
  for (const word of words) {
    const masked = variable.test(word) ? (word.startsWith('"') ? '"#"' : '#') : word;
    template = template === '' ? masked : `${template} ${masked}`;
  }
  return template;
}

const stackFrame = /^\s+(?:at\s+\S|File ".+", line \d+)/;

export function isStackFrame(line: string): boolean {
  return stackFrame.test(stripAnsiForMatching(line));
}
