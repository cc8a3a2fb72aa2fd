import { z } from 'zod';
import type { OptimizerClient } from '../../optimization/hook/optimizer-client.js';
import { handleMarker } from '../../optimization/hook/retrieval-tool-forwarding.js';

/** What the connect CLI's hook sends about one tool output. */
export const optimizeOutputBody = z.strictObject({
  tool: z
    .string()
    .regex(/^[A-Za-z0-9_.:-]{1,128}$/)
    .describe('The tool that produced the output (e.g. `Bash`, `Read`)'),
  output: z
    .string()
    .max(4 * 1024 * 1024)
    .describe('The tool output, as the tool printed it'),
  intent: z
    .string()
    .max(4_000)
    .optional()
    .describe('What the agent asked the tool for (its last message), for relevance'),
  reversible: z
    .boolean()
    .optional()
    .describe('An explicit read whose elided parts the model can fetch back with gw_retrieve'),
  retrievalContext: z
    .unknown()
    .optional()
    .describe(
      '`available`, `unavailable` or `unknown`: whether the model can call gw_retrieve; any other value counts as absent',
    ),
  model: z
    .string()
    .regex(/^[\x21-\x7e]{1,256}$/)
    .optional()
    .describe('The model the output goes to; prices the saving'),
});
export type OptimizeOutputInput = z.infer<typeof optimizeOutputBody>;

export const optimizeOutputResponse = z.object({
  handled: z.literal(true),
  output: z.string().describe('What to give the model: the original bytes when nothing changed'),
  changed: z.boolean(),
  tokensSaved: z.int(),
  handles: z.array(z.string()).describe('Retrieval handles the new output carries (reversible reads only)'),
});
export type OptimizeOutputResult = z.infer<typeof optimizeOutputResponse>;

const handlePattern = new RegExp(handleMarker.source, 'g');
const unchanged = (output: string): OptimizeOutputResult => ({
  handled: true,
  output,
  changed: false,
  tokensSaved: 0,
  handles: [],
});

/**
 * Optimize one tool output at its source, before it enters the transcript: the optimizer's single-output lane
 *. An explicit read with `reversible: true` is trimmed reversibly only when the client
 * says retrieval is `available`; with any other context it comes back byte for byte. Other output gets
 * the handle-free terminal trimming the lane allows, whatever the context. Fail-open: no optimizer, an error or a
 * timeout returns the original bytes.
 */
export async function optimizeOutput(
  optimizer: OptimizerClient | null,
  input: OptimizeOutputInput,
  caller: { user: string | null; team: string },
): Promise<OptimizeOutputResult> {
  const retrievable = input.retrievalContext === 'available';
  if (!optimizer || (input.reversible === true && !retrievable) || input.output === '') return unchanged(input.output);
  const request = {
    model: input.model ?? 'gw-connect-hook',
    messages: [
      { role: 'user', content: input.intent ?? `Run ${input.tool}.` },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'call_output', type: 'function', function: { name: input.tool, arguments: '{}' } }],
      },
      { role: 'tool', tool_call_id: 'call_output', content: input.output },
    ],
  };
  try {
    const answer = await optimizer.optimize({
      endpoint: '/connect/optimize-output',
      request,
      metadata: { source: 'connect-hook', ...(caller.user ? { user: caller.user } : {}), team: caller.team },
      capabilities: {
        singleOutput: true,
        terminalTrim: input.reversible !== true,
        retrieveEvidence: input.reversible === true && retrievable,
      },
    });
    const messages = (answer.request as { messages?: Array<{ content?: unknown }> }).messages;
    const content = messages?.[2]?.content;
    const saved = Math.max(0, Math.round(Number(answer.estimatedTokensSaved ?? 0)));
    if (typeof content !== 'string' || content === input.output || saved === 0) return unchanged(input.output);
    const before = new Set(input.output.match(handlePattern) ?? []);
    return {
      handled: true,
      output: content,
      changed: true,
      tokensSaved: saved,
      handles: [...new Set(content.match(handlePattern) ?? [])].filter((handle) => !before.has(handle)),
    };
  } catch {
    return unchanged(input.output);
  }
}
