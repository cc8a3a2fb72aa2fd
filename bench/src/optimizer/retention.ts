import type { Needle } from './corpus.js';
import type { OptimizerService } from './optimizer-service.js';
import { messageText } from './prompt-units.js';

/** How a needle survived: verbatim in the request, in a grep window of a carried handle, or in a full retrieve. */
export type NeedleVerdict = 'verbatim' | 'grep' | 'retrieve' | 'lost';

/** A verdict with what the model would have read back to recover the needle (grep windows or the whole original). */
export interface NeedleOutcome {
  readonly verdict: NeedleVerdict;
  readonly retrieved?: string;
}

const handlePattern = /ctx_[A-Za-z0-9_-]{24,}/g;
// eslint-disable-next-line no-control-regex -- terminal escapes are what is being removed
const ansiPattern = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[@-Z\\-_]/g;
/**
 * The benchmark's own notion of an error or failure line, deliberately broader than the optimizer's: any line naming
 * an error, failure, exception, traceback, panic or fatal condition, npm's `ERR!`, TAP's `not ok`, or a cross mark.
 */
const errorLine = /error|fail|exception|traceback|panic|fatal|ERR!|not ok|✗|✖|✘/i;

export function handlesIn(texts: readonly string[]): string[] {
  const found = new Set<string>();
  for (const text of texts) for (const handle of text.match(handlePattern) ?? []) found.add(handle);
  return [...found];
}

function visible(line: string): string {
  return line.replace(ansiPattern, '').trim();
}

/** A grep answer (`12:match`, `11-context`, windows split by `--`) back to the text of each window. */
function grepWindows(content: string): string[] {
  return content.split('\n--\n').map((window) =>
    window
      .split('\n')
      .map((line) => line.replace(/^\d+[:-]/, ''))
      .join('\n'),
  );
}

/** The first line of the needle with something to search for, cut to the 256-character grep limit. */
function grepTermOf(needle: string): string | null {
  const line = needle.split('\n').find((candidate) => candidate.trim() !== '');
  return line === undefined ? null : line.slice(0, 256);
}

/** Answers from `/v1/retrieve`, remembered per handle for the session. */
export class Recovery {
  private readonly originals = new Map<string, string | null>();

  constructor(private readonly service: OptimizerService) {}

  async original(handle: string): Promise<string | null> {
    if (!this.originals.has(handle)) this.originals.set(handle, (await this.service.retrieve(handle))?.content ?? null);
    return this.originals.get(handle) ?? null;
  }

  /** The grep answer's content when its windows (the first 20 matches only) show the needle, else null. */
  async grepFinds(handle: string, needle: string): Promise<string | null> {
    const term = grepTermOf(needle);
    if (term === null) return null;
    const answer = await this.service.retrieve(handle, term);
    return answer !== null && grepWindows(answer.content).some((window) => window.includes(needle))
      ? answer.content
      : null;
  }
}

/** Where a needle stands in one forwarded request, and what a model would read back to recover it. */
export async function needleVerdict(
  needle: Needle,
  joined: string,
  handles: readonly string[],
  recovery: Recovery,
): Promise<NeedleOutcome> {
  if (joined.includes(needle.needle)) return { verdict: 'verbatim' };
  for (const handle of handles) {
    const windows = await recovery.grepFinds(handle, needle.needle);
    if (windows !== null) return { verdict: 'grep', retrieved: windows };
  }
  for (const handle of handles) {
    const original = await recovery.original(handle);
    if (original?.includes(needle.needle)) return { verdict: 'retrieve', retrieved: original };
  }
  return { verdict: 'lost' };
}

export interface ErrorLineCheck {
  readonly checked: number;
  readonly lost: number;
}

/**
 * Error lines of each message the optimizer changed: each must still be readable in the forwarded request (escape
 * codes and surrounding whitespace aside) or be in the original behind a handle the request carries. Verdicts are
 * remembered per changed message, since later turns replay the same bytes.
 */
export class ErrorLineAudit {
  private readonly verdicts = new Map<string, ErrorLineCheck>();

  async check(
    original: readonly unknown[],
    forwarded: readonly unknown[],
    recovery: Recovery,
  ): Promise<ErrorLineCheck> {
    let checked = 0;
    let lost = 0;
    let joined: string | undefined;
    let handles: string[] | undefined;
    for (let index = 0; index < original.length; index += 1) {
      const before = JSON.stringify(original[index]);
      const after = JSON.stringify(forwarded[index] ?? null);
      if (before === after) continue;
      const key = `${index}\u0000${after}`;
      let verdict = this.verdicts.get(key);
      if (!verdict) {
        joined ??= forwarded.map((message) => messageText(message).replace(ansiPattern, '')).join('\n');
        handles ??= handlesIn(forwarded.map(messageText));
        verdict = await auditMessage(messageText(original[index]), joined, handles, recovery);
        this.verdicts.set(key, verdict);
      }
      checked += verdict.checked;
      lost += verdict.lost;
    }
    return { checked, lost };
  }
}

async function auditMessage(
  text: string,
  joined: string,
  handles: readonly string[],
  recovery: Recovery,
): Promise<ErrorLineCheck> {
  const lines = [...new Set(text.split('\n').filter((line) => errorLine.test(line)))];
  let lost = 0;
  for (const line of lines) {
    const shown = visible(line);
    if (shown.length === 0 || joined.includes(shown)) continue;
    let recovered = false;
    for (const handle of handles) {
      if ((await recovery.original(handle))?.includes(line)) {
        recovered = true;
        break;
      }
    }
    if (!recovered) lost += 1;
  }
  return { checked: lines.length, lost };
}
