import type { ChatTextPart, ChatUserPart } from '../schemas/chat-completions.schema.js';
import type {
  CacheControl,
  MessagesBlockOut,
  MessagesImageMediaType,
  MessagesTextBlockOut,
} from '../schemas/messages.types.js';
import { TranslationError } from '../translation-error.js';

/** Image media types the Messages API accepts; `image/jpg` is a common misspelling of the first. */
const imageMediaTypes: ReadonlySet<string> = new Set<MessagesImageMediaType>([
  'image/jpeg',
  'image/png',
  'image/gif',
  'image/webp',
]);

function isImageMediaType(mediaType: string): mediaType is MessagesImageMediaType {
  return imageMediaTypes.has(mediaType);
}

export function textBlock(part: ChatTextPart): MessagesTextBlockOut {
  return part.cache_control
    ? { type: 'text', text: part.text, cache_control: part.cache_control }
    : { type: 'text', text: part.text };
}

/**
 * User content parts → Messages blocks. Empty text parts are dropped: the Messages API rejects empty
 * text blocks. Audio and `file_id` references have no Messages equivalent and fail with a clear 400
 * rather than silently losing part of the prompt.
 */
export function convertUserParts(parts: readonly ChatUserPart[]): MessagesBlockOut[] {
  const blocks: MessagesBlockOut[] = [];
  for (const part of parts) {
    switch (part.type) {
      case 'text':
        if (part.text !== '') blocks.push(textBlock(part));
        break;
      case 'image_url':
        blocks.push(withCacheControl(imageUrlBlock(part.image_url.url), part.cache_control));
        break;
      case 'file':
        blocks.push(fileBlock(part.file));
        break;
      case 'input_audio':
        throw new TranslationError(
          'unsupported_feature',
          'Audio input cannot be sent to an Anthropic-family provider.',
        );
    }
  }
  return blocks;
}

function withCacheControl(block: MessagesBlockOut, cacheControl: CacheControl | undefined): MessagesBlockOut {
  return cacheControl && block.type === 'image' ? { ...block, cache_control: cacheControl } : block;
}

interface DataUrl {
  mediaType: string;
  data: string;
}

/** `data:<media type>[;params];base64,<data>`; indexOf rather than a regex, images run to megabytes. */
function parseDataUrl(url: string): DataUrl | undefined {
  if (!url.startsWith('data:')) return undefined;
  const comma = url.indexOf(',');
  if (comma === -1) return undefined;
  const meta = url.slice(5, comma).split(';');
  if (!meta.includes('base64')) {
    throw new TranslationError(
      'unsupported_feature',
      'Only base64 data URLs can be sent to an Anthropic-family provider.',
    );
  }
  const mediaType = (meta[0] ?? '').toLowerCase();
  return { mediaType: mediaType === 'image/jpg' ? 'image/jpeg' : mediaType, data: url.slice(comma + 1) };
}

function imageUrlBlock(url: string): MessagesBlockOut {
  const dataUrl = parseDataUrl(url);
  if (dataUrl) return base64Block(dataUrl);
  if (!/^https?:\/\//i.test(url))
    throw new TranslationError('invalid_request', 'image_url.url must be an http(s) or data URL.');
  // A PDF link sent as an image_url is a document to the Messages API (the Envoy AI Gateway does the same).
  if (/\.pdf(?:$|[?#])/i.test(url)) return { type: 'document', source: { type: 'url', url } };
  return { type: 'image', source: { type: 'url', url } };
}

function base64Block({ mediaType, data }: DataUrl, title?: string): MessagesBlockOut {
  if (isImageMediaType(mediaType)) return { type: 'image', source: { type: 'base64', media_type: mediaType, data } };
  if (mediaType === 'application/pdf') {
    const block: MessagesBlockOut = { type: 'document', source: { type: 'base64', media_type: mediaType, data } };
    return title ? { ...block, title } : block;
  }
  throw new TranslationError(
    'unsupported_feature',
    `Media type "${mediaType}" cannot be sent to an Anthropic-family provider.`,
  );
}

function fileBlock(file: {
  file_data?: string | undefined;
  file_id?: string | undefined;
  filename?: string | undefined;
}): MessagesBlockOut {
  const dataUrl = file.file_data === undefined ? undefined : parseDataUrl(file.file_data);
  if (!dataUrl) {
    throw new TranslationError(
      'unsupported_feature',
      'File parts must carry file_data as a base64 data URL; file_id references cannot cross providers.',
    );
  }
  return base64Block(dataUrl, file.filename);
}
