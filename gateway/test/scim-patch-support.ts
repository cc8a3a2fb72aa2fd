import { patchOpSchema } from '../src/identity/scim/protocol/patch-op.js';
import { ScimError } from '../src/identity/scim/protocol/scim-error.js';

/** Test support for the SCIM protocol's unit tests (`src/identity/scim/protocol/`): a PatchOp body of these operations. */
export const patch = (...operations: unknown[]) => ({ schemas: [patchOpSchema], Operations: operations });

/** The ScimError `run` throws; fails the test when it throws nothing or something else. */
export function thrownBy(run: () => unknown): ScimError {
  try {
    run();
  } catch (error) {
    if (error instanceof ScimError) return error;
    throw error;
  }
  throw new Error('expected a ScimError');
}
