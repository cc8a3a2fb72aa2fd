import { createRequire } from 'node:module';
import { dirname } from 'node:path';

/**
 * The folder of package `name` (its `package.json`, found through the package's exports), as seen from the module
 * at `from` (its `import.meta.url`). Files a package ships beside its code (migrations, the embedded store's
 * template) are found from here, never by counting folders up from the module: built, a module sits in `dist/` at
 * some depth, while the image runs each service as one bundle in `<service>/bundle/`, and Node's resolution finds the
 * same package folder from either.
 */
export function packageRoot(from: string | URL, name: string): string {
  return dirname(createRequire(from).resolve(`${name}/package.json`));
}
