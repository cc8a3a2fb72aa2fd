import { defineOperation, type AdminOperation } from '../../admin/operation.js';
import { setupState, setupStepBody } from './setup.schema.js';
import { readSetup, setSkipped, type SetupDeps } from './setup-steps.js';

/**
 * First-run setup (`/admin/v1/settings/setup`, legacy `/admin/wizard-state` and `/admin/wizard-step`): the steps a new
 * deployment walks through, each step's state readable so a console or the CLI resumes where it stopped. Steps are
 * completed through their own Management API calls (each step names it); setup itself only records skips.
 */
export function setupOperations(deps: SetupDeps): AdminOperation[] {
  return [
    defineOperation({
      id: 'settings.setup.get',
      summary: 'First-run setup: each step’s state (derived from the stores), the next pending step',
      method: 'GET',
      capability: 'config:read',
      legacy: [{ path: '/admin/wizard-state' }],
      v1: { path: '/admin/v1/settings/setup' },
      xScope: 'deployment',
      response: setupState,
      handler: async () => readSetup(deps),
    }),
    defineOperation({
      id: 'settings.setup.step',
      summary: 'Skip a setup step, or take the skip back (idempotent); answers the whole setup state',
      method: 'PUT',
      capability: 'content:manage',
      legacy: [{ path: '/admin/wizard-step' }],
      v1: { path: '/admin/v1/settings/setup' },
      xScope: 'deployment',
      body: setupStepBody,
      response: setupState,
      handler: async ({ body, principal }) => {
        await setSkipped(deps, body.step, body.skipped, principal.actor);
        return readSetup(deps);
      },
    }),
  ];
}
