/**
 * Lines as retrieve counts them: split on `\n`, a trailing newline does not open an extra empty line, and a `\r`
 * before the newline stays part of its line so a window reproduces the original bytes.
 */
export function splitLines(content: string): string[] {
  if (content === '') return [];
  const lines = content.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

export function countLines(content: string): number {
  if (content === '') return 0;
  let count = 1;
  for (let index = content.indexOf('\n'); index !== -1; index = content.indexOf('\n', index + 1)) count += 1;
  return content.endsWith('\n') ? count - 1 : count;
}
