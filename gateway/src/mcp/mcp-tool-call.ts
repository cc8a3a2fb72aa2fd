import { describeIssues } from '@gw/platform';
import type { Identity } from '../identity/caller.js';
import type {
  RecallMatch,
  RetrievalService,
  RetrieveFailure,
  RetrievedOriginal,
} from '../optimization/retrieval/retrieval-service.js';
import { gwRecallArguments, gwRetrieveArguments } from '../optimization/retrieval/retrieval-tools.js';

/** An MCP `CallToolResult`: text content, and `isError` for failures the model should read (never protocol errors). */
export interface ToolResult {
  content: Array<{ type: 'text'; text: string }>;
  isError?: true;
}

export interface ToolCallContext {
  identity: Identity;
  retrieval: RetrievalService;
}

const text = (value: string) => ({ type: 'text' as const, text: value });
const toolError = (message: string): ToolResult => ({ content: [text(message)], isError: true });

// Unknown or expired handle and retrieval unavailable come back in-band, worded for the model.
const failureText: Record<RetrieveFailure, (handle: string) => string> = {
  not_found: (handle) =>
    `gw_retrieve: handle ${handle} is unknown or has expired. Stashed originals are kept for a few hours after the gateway elided them; ` +
    'this one is no longer available. Re-run the tool or re-read the source if you still need it, or use gw_recall to search what is still stashed.',
  unavailable: () =>
    'gw_retrieve: retrieval is unavailable right now (the gateway cannot reach its retrieval store). The elided content cannot be fetched at the moment; try again shortly or continue without it.',
  slice_unsupported: (handle) =>
    `gw_retrieve: the retrieval service behind this gateway does not support startLine, endLine or grep yet. Call gw_retrieve again with only the handle (${handle}) to fetch the whole original.`,
};

/** `tools/call` for the two retrieval tools; the name is checked by the caller (an unknown tool is a protocol error). */
export async function callRetrievalTool(
  name: 'gw_retrieve' | 'gw_recall',
  input: unknown,
  context: ToolCallContext,
): Promise<ToolResult> {
  return name === 'gw_retrieve' ? callRetrieve(input, context) : callRecall(input, context);
}

async function callRetrieve(input: unknown, context: ToolCallContext): Promise<ToolResult> {
  const parsed = gwRetrieveArguments.safeParse(input ?? {});
  // Argument problems are tool errors, so the model can correct itself (MCP 2025-11-25, tools: input validation).
  if (!parsed.success)
    return toolError(`gw_retrieve: invalid arguments: ${describeIssues('arguments', parsed.error.issues)}`);
  const outcome = await context.retrieval.retrieve(context.identity, parsed.data, 'model', 'mcp');
  if (outcome.status !== 'ok') return toolError(failureText[outcome.status](parsed.data.handle));
  const original = outcome.original;
  // The first block is the original's bytes exactly; a partial answer adds one block saying what was cut.
  return {
    content: original.partial ? [text(original.content), text(describeSlice(original))] : [text(original.content)],
  };
}

async function callRecall(input: unknown, context: ToolCallContext): Promise<ToolResult> {
  const parsed = gwRecallArguments.safeParse(input ?? {});
  if (!parsed.success)
    return toolError(`gw_recall: invalid arguments: ${describeIssues('arguments', parsed.error.issues)}`);
  const matches = await context.retrieval.recall(context.identity, parsed.data.query, undefined, 'mcp');
  if (matches.length === 0) return { content: [text('gw_recall: nothing stashed for you matches this query.')] };
  return { content: [text(matches.map(renderMatch).join('\n\n'))] };
}

function describeSlice(original: RetrievedOriginal): string {
  const parts = [
    `gw_retrieve: partial content of ${original.handle}: lines ${original.startLine ?? 1}-${original.endLine ?? original.totalLines} of ${original.totalLines} (${original.totalChars} characters in the whole original)`,
  ];
  if (original.grepMatches !== undefined && (original.grepMatches > 0 || original.content === '')) {
    parts.push(original.grepMatches === 0 ? 'no line matched the grep' : `${original.grepMatches} matching line(s)`);
  }
  if (original.grepTruncated)
    parts.push('only the first 20 match windows are shown; narrow the range or the grep to see the rest');
  return `[${parts.join('; ')}]`;
}

function renderMatch(match: RecallMatch, index: number): string {
  const lines =
    match.startLine !== undefined && match.endLine !== undefined ? ` lines ${match.startLine}-${match.endLine}` : '';
  return `${index + 1}. ${match.handle} (score ${match.score}${lines})\n${match.preview}`;
}
