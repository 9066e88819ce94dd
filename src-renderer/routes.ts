/** The views of the main window, in the order of the navigation. */
export const VIEWS = [
  { id: 'queue', label: 'Queue' },
  { id: 'folders', label: 'Folders' },
  { id: 'files', label: 'Files' },
  { id: 'imports', label: 'Imports' },
  { id: 'account', label: 'Account' },
  { id: 'settings', label: 'Settings' },
] as const;
export type ViewId = (typeof VIEWS)[number]['id'];

/** The sections of Settings, in the order of its side list; each has its address, `#/settings/uploads`. */
export const SETTINGS_SECTIONS = ['general', 'uploads', 'notifications', 'accounts', 'updates', 'support'] as const;
export type SettingsSectionId = (typeof SETTINGS_SECTIONS)[number];

export interface Route {
  view: ViewId;
  /** `#/settings/uploads` → 'uploads'; the first section for Settings without one (or an unknown one) */
  section: SettingsSectionId;
  /** `#/files?search=clip.mp4` → 'clip.mp4': Files opens with it searched */
  search: string | null;
}

/**
 * `#/files` → Files; `#settings/uploads` and `#/settings/uploads` → Settings'
 * Uploads section; anything else → the Queue, the view the window opens on.
 */
export function routeFromHash(hash: string): Route {
  const [path = '', query = ''] = hash.replace(/^#\/?/, '').split('?', 2);
  const [id, section] = path.split('/');
  return {
    view: VIEWS.find((view) => view.id === id)?.id ?? 'queue',
    section: SETTINGS_SECTIONS.find((candidate) => candidate === section) ?? 'general',
    search: new URLSearchParams(query).get('search'),
  };
}

export function viewFromHash(hash: string): ViewId {
  return routeFromHash(hash).view;
}

/** The address of Files with `name` searched: how a file of the service is linked from a view. */
export function filesSearchHash(name: string): string {
  return `#/files?${new URLSearchParams({ search: name }).toString()}`;
}
