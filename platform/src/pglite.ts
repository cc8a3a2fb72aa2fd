// `@gw/platform/pglite`: the embedded store (PGlite) and its image template, apart from the main entry so that
// importing the platform does not load PGlite (services reach it through `createDb`).
export { PgliteDb } from './db/pglite-db.js';
export { embeddedTemplatePath, writeEmbeddedTemplate, type TemplateSchema } from './db/embedded-template.js';
