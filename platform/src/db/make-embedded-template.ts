import { embeddedTemplatePath, writeEmbeddedTemplate } from './embedded-template.js';

// Run at image build time: `node platform/dist/db/make-embedded-template.js` (see embedded-template.ts).
await writeEmbeddedTemplate(process.argv[2] ?? embeddedTemplatePath);
