import type { ProviderInstance, ProviderType, UpstreamOperation, UpstreamTarget } from './provider-types.js';

/**
 * One adapter per provider type (Portkey's explicit registry, without its sprawl): default base URL and how a named
 * operation becomes an upstream URL plus injected credential. OpenAI-compatible providers share one base.
 */
export interface ProviderAdapter {
  defaultBaseUrl: string | null;
  defaultApiVersion?: string;
  target(instance: ProviderInstance, operation: UpstreamOperation, model: string | null): UpstreamTarget;
}

const openAiPaths: Record<Exclude<UpstreamOperation['kind'], 'passthrough' | 'messages' | 'count_tokens'>, string> = {
  chat: '/chat/completions',
  completions: '/completions',
  embeddings: '/embeddings',
  models: '/models',
};

function joinUrl(base: string, path: string): string {
  return `${base.replace(/\/+$/, '')}${path}`;
}

/** Paths are relative to a base URL that already ends in the API version segment (`…/v1`). */
function openAiStylePath(operation: UpstreamOperation): string {
  if (operation.kind === 'passthrough') return `${operation.path}${operation.search}`;
  if (operation.kind === 'messages' || operation.kind === 'count_tokens')
    return operation.kind === 'messages' ? '/messages' : '/messages/count_tokens';
  return openAiPaths[operation.kind];
}

const headerIf = (name: string, value: string | null): Record<string, string> => (value ? { [name]: value } : {});
const bearer = (key: string | null): Record<string, string> => headerIf('authorization', key ? `Bearer ${key}` : null);

const openAiCompatible: ProviderAdapter = {
  defaultBaseUrl: null,
  target: (instance, operation) => ({
    url: joinUrl(instance.baseUrl, openAiStylePath(operation)),
    headers: bearer(instance.apiKey),
  }),
};

const openAi: ProviderAdapter = { ...openAiCompatible, defaultBaseUrl: 'https://api.openai.com/v1' };

// Azure OpenAI: deployments are addressed by name in the path, the version in the query, the key in `api-key`.
const azureOpenAi: ProviderAdapter = {
  defaultBaseUrl: null,
  defaultApiVersion: '2024-10-21',
  target: (instance, operation, model) => {
    const version = `api-version=${encodeURIComponent(instance.apiVersion ?? '2024-10-21')}`;
    const headers = headerIf('api-key', instance.apiKey);
    if (operation.kind === 'passthrough') {
      const separator = operation.search ? '&' : '?';
      return {
        url: joinUrl(instance.baseUrl, `/openai${operation.path}${operation.search}${separator}${version}`),
        headers,
      };
    }
    if (operation.kind === 'models') return { url: joinUrl(instance.baseUrl, `/openai/models?${version}`), headers };
    const deployment = encodeURIComponent(model ?? '');
    return {
      url: joinUrl(instance.baseUrl, `/openai/deployments/${deployment}${openAiStylePath(operation)}?${version}`),
      headers,
    };
  },
};

const anthropic: ProviderAdapter = {
  defaultBaseUrl: 'https://api.anthropic.com/v1',
  target: (instance, operation) => ({
    url: joinUrl(instance.baseUrl, openAiStylePath(operation)),
    headers: headerIf('x-api-key', instance.apiKey),
  }),
};

// Another chat-completions-compatible gateway at `custom_host`; `api_key` optional (keyless gateway).
const gwUpstream: ProviderAdapter = { ...openAiCompatible };

export const adapters: Readonly<Record<ProviderType, ProviderAdapter>> = {
  openai: openAi,
  'azure-openai': azureOpenAi,
  anthropic,
  'openai-compatible': openAiCompatible,
  'gw-upstream': gwUpstream,
};
