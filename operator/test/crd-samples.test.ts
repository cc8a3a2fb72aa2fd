import { readdir, readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { crdDefinitions } from '@gw/contracts';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installGwCrds } from './kube/gw-crds.js';
import { kubeRequest } from './kube/kube-request.js';
import { startKubeTestServer, type KubeTestServer } from './kube/kube-test-server.js';

// Issue 9 "Checked by": valid and invalid samples for each kind applied to the real API server, each invalid one
// rejected with its expected message. Invalid samples carry `# expect:` and optionally `# update-of: <example>`.

const examplesDir = fileURLToPath(new URL('../examples/', import.meta.url));
const invalidDir = fileURLToPath(new URL('./samples/invalid/', import.meta.url));

interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string; resourceVersion?: string };
  spec: unknown;
}

async function yamlFiles(directory: string): Promise<string[]> {
  return (await readdir(directory)).filter((file) => file.endsWith('.yaml')).sort();
}

function pluralOf(kind: string): string {
  const definition = crdDefinitions.find((candidate) => candidate.kind === kind);
  if (definition === undefined) throw new Error(`unknown kind ${kind}`);
  return definition.plural;
}

function collectionPath(manifest: Manifest, namespace: string): string {
  return `/apis/gw.dev/v1alpha1/namespaces/${namespace}/${pluralOf(manifest.kind)}`;
}

const examples = await yamlFiles(examplesDir);
const invalid = await yamlFiles(invalidDir);

describe('CRD samples against the real API server', () => {
  let server: KubeTestServer;
  beforeAll(async () => {
    server = await startKubeTestServer();
    await installGwCrds(server.kubeConfig);
  }, 15 * 60_000);
  afterAll(async () => server?.stop());

  async function create(manifest: Manifest, namespace: string) {
    return kubeRequest(
      server.kubeConfig,
      'POST',
      `${collectionPath(manifest, namespace)}?fieldValidation=Strict`,
      manifest,
    );
  }

  it('covers every kind with a valid example and at least two invalid samples', async () => {
    const kindsOf = async (directory: string, files: string[]) =>
      Promise.all(files.map(async (file) => (parse(await readFile(join(directory, file), 'utf8')) as Manifest).kind));
    const validKinds = new Set(await kindsOf(examplesDir, examples));
    const invalidKinds = await kindsOf(invalidDir, invalid);
    for (const definition of crdDefinitions) {
      expect(validKinds).toContain(definition.kind);
      expect(invalidKinds.filter((kind) => kind === definition.kind).length).toBeGreaterThanOrEqual(2);
    }
  });

  it.each(examples)('accepts examples/%s and validates its spec with the zod schema', async (file) => {
    const manifest = parse(await readFile(join(examplesDir, file), 'utf8')) as Manifest;
    const response = await create(manifest, 'examples');
    expect(response.status, response.text).toBe(201);
    const definition = crdDefinitions.find((candidate) => candidate.kind === manifest.kind)!;
    // What the server stored (with its defaults applied) parses with the operator's schema.
    expect(definition.spec.safeParse((response.body as Manifest).spec).success).toBe(true);
  });

  it.each(invalid)('rejects samples/invalid/%s with its expected message', async (file) => {
    const text = await readFile(join(invalidDir, file), 'utf8');
    const expected = /^# expect: (.+)$/m.exec(text)?.[1];
    const updateOf = /^# update-of: (.+)$/m.exec(text)?.[1];
    expect(expected, 'sample needs an "# expect:" line').toBeDefined();
    const manifest = parse(text) as Manifest;
    const namespace = basename(file, '.yaml');
    let response;
    if (updateOf !== undefined) {
      const base = parse(await readFile(join(examplesDir, updateOf), 'utf8')) as Manifest;
      const created = await create(base, namespace);
      expect(created.status, created.text).toBe(201);
      manifest.metadata.resourceVersion = (created.body as Manifest).metadata.resourceVersion;
      const path = `${collectionPath(manifest, namespace)}/${manifest.metadata.name}?fieldValidation=Strict`;
      response = await kubeRequest(server.kubeConfig, 'PUT', path, manifest);
    } else {
      response = await create(manifest, namespace);
    }
    expect([400, 422]).toContain(response.status);
    expect((response.body as { message: string }).message).toContain(expected);
  });
});
