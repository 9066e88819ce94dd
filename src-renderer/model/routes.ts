/** The views of the main window, in the order of the navigation. */
export const VIEWS = [
  { id: 'queue', label: 'Queue' },
  { id: 'files', label: 'Files' },
  { id: 'imports', label: 'Imports' },
  { id: 'account', label: 'Account' },
  { id: 'settings', label: 'Settings' },
] as const;
export type ViewId = (typeof VIEWS)[number]['id'];

/** `#/files` → 'files'; anything else → the queue, the view a sync client opens on. */
export function viewFromHash(hash: string): ViewId {
  const id = hash.replace(/^#\/?/, '');
  return VIEWS.find((view) => view.id === id)?.id ?? 'queue';
}
