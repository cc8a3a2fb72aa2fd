/**
 * What kind of output each tool message carries, told from the call that produced it (tool name and command), so
 * the report can say where the savings come from: file reads, listings, test and build logs, history and diffs,
 * dependency trees and JSON. A heuristic for the report only; the optimizer never sees these labels.
 */
export const outputKinds = [
  'file read',
  'listing',
  'test log',
  'build/lint log',
  'install log',
  'git history/diff',
  'dependency tree/JSON',
  'other',
] as const;
export type OutputKind = (typeof outputKinds)[number];

interface Call {
  readonly name: string;
  readonly command: string;
}

const rules: ReadonlyArray<readonly [OutputKind, RegExp]> = [
  ['install log', /\bnpm (?:install|ci|i)\b|\bpip install\b|\byarn(?: install)?$/],
  [
    'test log',
    /\b(?:npm (?:run )?test|mocha|jest|vitest|pytest|unittest|ava|go test|node --test|tap|uvu|test:\w+)\b|env\.sh/,
  ],
  ['build/lint log', /\b(?:tsc|eslint|xo|tstyche|build|lint|cargo|make)\b/],
  ['git history/diff', /\bgit (?:log|show|diff|blame)\b/],
  ['dependency tree/JSON', /\bnpm (?:ls|view|explain|pkg)\b|--json\b/],
  ['listing', /^(?:find|ls|grep|rg|tree|git ls-files)\b/],
  ['file read', /^(?:cat|sed -n|head|tail|nl)\b/],
];

export function classifyOutput(call: Call | undefined): OutputKind {
  if (!call) return 'other';
  const name = call.name.toLowerCase();
  if (name === 'read_file' || name === 'read') return 'file read';
  if (name === 'grep' || name === 'glob' || name === 'find' || name === 'ls') return 'listing';
  if (name === 'write_file' || name === 'write' || name === 'edit_file' || name === 'edit') return 'other';
  const command = call.command.trim();
  for (const [kind, pattern] of rules) if (pattern.test(command)) return kind;
  return 'other';
}

type Json = Record<string, unknown>;

function commandOf(input: unknown): string {
  if (typeof input === 'string') {
    try {
      return commandOf(JSON.parse(input) as unknown);
    } catch {
      return input;
    }
  }
  const record = (input ?? {}) as Json;
  const command = record.command ?? record.cmd ?? record.pattern ?? record.path ?? record.file_path ?? '';
  return typeof command === 'string' ? command : '';
}

/** Every tool call of the conversation by id (chat `tool_calls`, Messages `tool_use` blocks). */
function callsById(messages: readonly unknown[]): Map<string, Call> {
  const calls = new Map<string, Call>();
  for (const message of messages) {
    const shaped = (message ?? {}) as Json;
    if (shaped.role !== 'assistant') continue;
    for (const call of (shaped.tool_calls ?? []) as Json[]) {
      const fn = (call.function ?? {}) as Json;
      if (typeof call.id === 'string')
        calls.set(call.id, { name: typeof fn.name === 'string' ? fn.name : '', command: commandOf(fn.arguments) });
    }
    if (!Array.isArray(shaped.content)) continue;
    for (const block of shaped.content as Json[]) {
      if (block.type === 'tool_use' && typeof block.id === 'string')
        calls.set(block.id, {
          name: typeof block.name === 'string' ? block.name : '',
          command: commandOf(block.input),
        });
    }
  }
  return calls;
}

/** The kind of each message that carries a tool output, by message index (Messages: its first tool_result). */
export function outputKindsByMessage(messages: readonly unknown[]): Map<number, OutputKind> {
  const calls = callsById(messages);
  const kinds = new Map<number, OutputKind>();
  messages.forEach((message, index) => {
    const shaped = (message ?? {}) as Json;
    if (shaped.role === 'tool' && typeof shaped.tool_call_id === 'string')
      kinds.set(index, classifyOutput(calls.get(shaped.tool_call_id)));
    if (shaped.role !== 'user' || !Array.isArray(shaped.content)) return;
    const result = (shaped.content as Json[]).find((block) => block.type === 'tool_result');
    if (result && typeof result.tool_use_id === 'string')
      kinds.set(index, classifyOutput(calls.get(result.tool_use_id)));
  });
  return kinds;
}
