import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';

export interface Needle {
  readonly needle: string;
  /** Index into `messages` of the first message carrying it (corpus README "Needles schema"). */
  readonly where: number;
  readonly kind?: string;
}

export type SessionFormat = 'openai-chat' | 'anthropic-messages';

/** One recorded conversation: the whole transcript as the client's last request, replayed turn by turn. */
export interface CorpusSession {
  readonly name: string;
  readonly format: SessionFormat;
  readonly endpoint: string;
  readonly model: string;
  readonly request: Record<string, unknown>;
  readonly needles: readonly Needle[];
}

export interface Corpus {
  readonly label: string;
  readonly sessions: readonly CorpusSession[];
}

export interface CorpusFilter {
  readonly limit: number | undefined;
  readonly only: string | undefined;
}

const endpoints: Record<SessionFormat, string> = {
  'openai-chat': '/v1/chat/completions',
  'anthropic-messages': '/v1/messages',
};
// The SWE-bench runs name their model in `info.config.model.model_name`; a bare chat request needs some model id.
const fallbackModel = 'gpt-4.1';

function readJson(path: string): unknown {
  return JSON.parse(readFileSync(path, 'utf8')) as unknown;
}

function jsonFiles(dir: string, suffix: string): string[] {
  return readdirSync(dir)
    .filter((file) => file.endsWith(suffix))
    .sort();
}

function filtered(sessions: CorpusSession[], filter: CorpusFilter): CorpusSession[] {
  const matching =
    filter.only === undefined ? sessions : sessions.filter((session) => session.name.includes(filter.only ?? ''));
  return filter.limit === undefined ? matching : matching.slice(0, filter.limit);
}

function hasBlocks(message: unknown): boolean {
  const content = (message as { content?: unknown }).content;
  return (
    Array.isArray(content) &&
    content.some((block) => ['tool_use', 'tool_result'].includes((block as { type?: unknown }).type as string))
  );
}

/** Messages bodies carry `system` at the top level (never a chat body: validate.mjs) or tool_use/tool_result blocks. */
function formatOf(request: Record<string, unknown>): SessionFormat {
  if ('system' in request) return 'anthropic-messages';
  const messages = Array.isArray(request.messages) ? request.messages : [];
  return messages.some(hasBlocks) ? 'anthropic-messages' : 'openai-chat';
}

/** `transcripts/NNN-slug.json` request bodies with `needles/NNN-slug.json` beside them (corpus README "Layout"). */
function loadTranscripts(dir: string): CorpusSession[] {
  const needlesDir = join(dir, '..', 'needles');
  return jsonFiles(dir, '.json').map((file) => {
    const request = readJson(join(dir, file)) as Record<string, unknown>;
    const needlesPath = join(needlesDir, file);
    const needles = existsSync(needlesPath) ? (readJson(needlesPath) as Needle[]) : [];
    const format = formatOf(request);
    const model = typeof request.model === 'string' ? request.model : fallbackModel;
    return { name: file.replace(/\.json$/, ''), format, endpoint: endpoints[format], model, request, needles };
  });
}

interface Trajectory {
  readonly messages: unknown[];
  readonly info?: { config?: { model?: { model_name?: unknown } } };
}

/** mini-swe-agent trajectories (`*.traj.json`): a shell agent's chat messages, no structured tools, no needles. */
function loadTrajectories(dir: string): CorpusSession[] {
  return jsonFiles(dir, '.traj.json').map((file) => {
    const trajectory = readJson(join(dir, file)) as Trajectory;
    const named = trajectory.info?.config?.model?.model_name;
    const model = typeof named === 'string' ? named.slice(named.lastIndexOf('/') + 1) : fallbackModel;
    const request = { model, messages: trajectory.messages };
    return {
      name: file.replace(/\.traj\.json$/, ''),
      format: 'openai-chat',
      endpoint: endpoints['openai-chat'],
      model,
      request,
      needles: [],
    };
  });
}

/**
 * The corpora in a folder of the shared corpus's layout: `transcripts/` (with `needles/`), `swebench-trajs/`, or a
 * folder that is itself a set of `*.traj.json` trajectories. Sessions in file-name order, so runs are comparable.
 */
export function loadCorpora(dir: string, filter: CorpusFilter): Corpus[] {
  if (!existsSync(dir)) throw new Error(`corpus folder ${dir} does not exist`);
  const name = basename(dir);
  const corpora: Corpus[] = [];
  const transcripts = join(dir, 'transcripts');
  if (existsSync(transcripts))
    corpora.push({ label: `${name}/transcripts`, sessions: filtered(loadTranscripts(transcripts), filter) });
  const trajectories = join(dir, 'swebench-trajs');
  if (existsSync(trajectories))
    corpora.push({ label: `${name}/swebench-trajs`, sessions: filtered(loadTrajectories(trajectories), filter) });
  if (corpora.length === 0 && jsonFiles(dir, '.traj.json').length > 0)
    corpora.push({ label: name, sessions: filtered(loadTrajectories(dir), filter) });
  if (corpora.length === 0)
    throw new Error(`${dir} holds neither transcripts/ nor swebench-trajs/ nor *.traj.json files`);
  return corpora.filter((corpus) => corpus.sessions.length > 0);
}
