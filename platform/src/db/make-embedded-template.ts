import { embeddedTemplatePath, writeEmbeddedTemplate, type TemplateSchema } from './embedded-template.js';

// Run at image build time (see embedded-template.ts):
//   node platform/dist/db/make-embedded-template.js OUT [SERVICE=MIGRATIONS_DIR ...]
// e.g. `… template.tar.gz gateway=gateway/migrations optimizer=optimizer/migrations evidence=evidence/migrations`.
const [out, ...pairs] = process.argv.slice(2);
const schemas: TemplateSchema[] = pairs.map((pair) => {
  const [service, directory] = pair.split('=');
  if (!service || !directory) throw new Error(`expected SERVICE=MIGRATIONS_DIR, got ${pair}`);
  return { service, directory };
});
await writeEmbeddedTemplate(out ?? embeddedTemplatePath, schemas);
