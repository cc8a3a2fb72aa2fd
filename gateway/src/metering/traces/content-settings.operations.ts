import { contentSettingsPutBody, contentSettingsResponse } from '../../admin/settings/settings.schema.js';
import type { SettingsStore, StoredSettings } from '../../admin/settings/settings.store.js';
import { defineOperation, type AdminOperation } from '../../admin/operation.js';
import type { ContentRetention } from './content-retention.js';

export interface ContentSettingsDeps {
  settings: SettingsStore;
  retention: ContentRetention;
  contentKeyConfigured: boolean;
}

/**
 * The content lane of the settings: the content mode and how long stored content is kept, with what is held now.
 * Changing either needs `settings:content`; shortening the retention purges at once.
 */
export function contentSettingsOperations({
  settings,
  retention,
  contentKeyConfigured,
}: ContentSettingsDeps): AdminOperation[] {
  const view = async (stored: StoredSettings) => ({
    contentMode: stored.settings.contentMode,
    contentRetentionDays: stored.settings.contentRetentionDays,
    contentKeyConfigured,
    storedContent: await retention.stored(),
    lastPurge: retention.lastPurge(),
    updatedAt: stored.updatedAt,
    updatedBy: stored.updatedBy,
  });
  return [
    defineOperation({
      id: 'settings.content.get',
      summary: 'The content mode, the content retention and what stored content is held',
      method: 'GET',
      capability: 'config:read',
      v1: { path: '/admin/v1/settings/content' },
      xScope: 'deployment',
      response: contentSettingsResponse,
      handler: async () => view(await settings.read()),
    }),
    defineOperation({
      id: 'settings.content.update',
      summary:
        'Change the content mode or the content retention (omitted fields kept); a shorter retention purges at once',
      method: 'PUT',
      capability: 'content:manage',
      v1: { path: '/admin/v1/settings/content', scope: 'settings:content' },
      xScope: 'deployment',
      auditCategory: 'settings',
      body: contentSettingsPutBody,
      response: contentSettingsResponse,
      handler: async ({ body, principal }) => {
        const stored = await settings.update(body, principal.actor);
        if (body.contentRetentionDays !== undefined) await retention.purge();
        return view(stored);
      },
    }),
  ];
}
