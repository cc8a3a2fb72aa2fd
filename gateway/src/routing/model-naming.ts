import { lookupModel, type ModelFacts } from '../providers/pricing/known-models.js';
import type { ProviderInstance, ProviderType } from '../providers/provider-types.js';
import { gatewayError } from '../errors.js';

/**
 * How each first-party API names its models. The gateway cannot list every model a vendor serves and must not refuse
 * one released after it was built, but a vendor's ids follow its naming: every Anthropic model is `claude-…`, every
 * OpenAI one a known prefix. Providers reached through `azure-openai` (deployment names), `openai-compatible` and
 * `gw-upstream` serve whatever their operator named, so they are never second-guessed.
 */
const vendorNaming: Partial<Record<ProviderType, RegExp>> = {
  openai:
    /^(gpt-|gpt\d|chatgpt-|o\d|text-embedding-|omni-moderation-|ft:|davinci-|babbage-|codex-|computer-use-|dall-e-|tts-|whisper-)/,
  anthropic: /^claude-/,
};

/**
 * An unknown model is the gateway's 400, not a round trip to a provider that answers 404. A model is
 * known to a first-party provider when the model table (with the deployment's `/admin/v1/routing/models`) places it
 * in that provider's family, or when the table does not know it and it follows the vendor's naming.
 */
export function assertServableModel(
  provider: ProviderInstance,
  model: string,
  registered: Readonly<Record<string, ModelFacts>>,
): void {
  const naming = vendorNaming[provider.type];
  if (!naming) return;
  const facts = lookupModel(model, registered);
  if (facts ? facts.family === provider.family : naming.test(model)) return;
  throw gatewayError(
    'unknown_model',
    `Unknown model "${model}" for provider "${provider.slug}" (${provider.type}). Name a model it serves, choose another provider (x-gw-provider, or a <provider>/<model> id), or register the model with PUT /admin/v1/routing/models.`,
  );
}
