import { useCallback, useEffect, useState } from 'react';
import type { AppIntent } from '../../src-shared/ipc/ipc-contract.js';
import { useConnection, useEvent } from '../bridge/bridge-context.js';
import { useStores } from '../store/stores.js';
import { intentToast } from '../text/intent-toasts.js';
import type { Toast } from './toaster.js';

export interface Intents {
  /** links opened from outside, for the Imports box; empty once the box took them */
  importLinks: string[];
  importLinksTaken(): void;
  /** a search opened from outside, for Files (`value` null: Files as it is) */
  filesSearch: { value: string | null } | null;
  filesSearchTaken(): void;
  /** Files with `value` searched, as a link from outside would open it (a view's link to a file) */
  showFilesSearch(value: string): void;
}

/**
 * Acts on what media-sync:// links and opened files asked for (the core's
 * intents): takes them when the page connects and whenever the core says
 * more wait, so each is acted on once. Links open a view and fill in a
 * field, never more: the person sends an import with their own click.
 * Everything else becomes a toast.
 */
export function useIntents(showToast: (toast: Toast) => void): Intents {
  const { app } = useStores();
  const connection = useConnection();
  const [importLinks, setImportLinks] = useState<string[]>([]);
  const [filesSearch, setFilesSearch] = useState<{ value: string | null } | null>(null);

  const act = useCallback(
    (intent: AppIntent) => {
      switch (intent.kind) {
        case 'import':
          setImportLinks((previous) => [...previous, intent.url]);
          location.hash = '#/imports';
          return;
        case 'files':
          setFilesSearch({ value: intent.search });
          location.hash = '#/files';
          return;
        default:
          // written when drawn, so it follows a change of language
          showToast({ key: `intent-${intent.id}`, content: () => intentToast(intent), link: null, requestId: null });
      }
    },
    [showToast],
  );

  const take = useCallback(() => {
    // a lost connection takes nothing: the intents wait in the core for the next try
    app.takeIntents().then(
      (intents) => intents.forEach(act),
      () => undefined,
    );
  }, [app, act]);

  useEvent('app:intentsAvailable', take);
  // at start, and after a reconnection: what arrived meanwhile waits in the core
  useEffect(() => {
    if (connection === 'open') take();
  }, [connection, take]);

  return {
    importLinks,
    importLinksTaken: useCallback(() => setImportLinks([]), []),
    filesSearch,
    filesSearchTaken: useCallback(() => setFilesSearch(null), []),
    showFilesSearch: useCallback((value: string) => setFilesSearch({ value }), []),
  };
}
