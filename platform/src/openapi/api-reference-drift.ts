import { readFile, writeFile } from 'node:fs/promises';
import { renderApiReference, type OpenApiDocument } from './api-reference.js';

/**
 * For a service's drift test: the committed reference and the one rendered from the live document. With
 * `GW_UPDATE_API_REFERENCE=1` the committed file is rewritten first, so `expected` equals `actual`.
 */
export async function apiReferenceDrift(
  document: OpenApiDocument,
  file: URL,
  generatedBy: string,
): Promise<{ expected: string; actual: string }> {
  const actual = renderApiReference(document, generatedBy);
  if (process.env.GW_UPDATE_API_REFERENCE === '1') await writeFile(file, actual);
  const expected = await readFile(file, 'utf8').catch(() => '');
  return { expected, actual };
}
