// The image runs each service as one bundle (`<service>/bundle/main.js` and its lazily loaded chunks) instead of
// hundreds of modules resolved and linked one by one: loading the gateway's modules was about a third of its start.
// Made by the Containerfile's build stage from the compiled `dist/`:
//   rolldown -c images/rolldown.config.mjs
// Left outside the bundles, and shipped in node_modules: the packages that read files of their own at run time
// (PGlite's WebAssembly and data files, the Swagger UI's static assets).
// A bundle sits one folder below its package, as `dist/` does; what a service reads from its package (migrations) or
// from the platform's (the embedded store's template) is found through Node's resolution (platform's packageRoot).
const external = ['@electric-sql/pglite', /^@electric-sql\/pglite\//, '@fastify/swagger-ui'];

// The embedded store runs PGlite on a worker thread whose module sits beside the one that starts it
// (platform/src/db/pglite-db.ts): each bundle carries it as an entry of its own, `<service>/bundle/pglite-worker.js`.
export default ['gateway', 'optimizer', 'evidence'].map((service) => ({
  input: { main: `${service}/dist/main.js`, 'pglite-worker': 'platform/dist/db/pglite-worker.js' },
  platform: 'node',
  external,
  output: { dir: `${service}/bundle`, format: 'esm', sourcemap: false },
}));
