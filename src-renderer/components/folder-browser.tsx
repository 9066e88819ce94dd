import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { createPortal } from 'react-dom';
import { useAction, useQuery } from '../bridge/bridge-context.js';
import { useStores } from '../store/stores.js';
import { folderListingText } from '../text/folder-browser-text.js';
import { ErrorNote } from './error-note.js';
import { useModalDialog } from './use-modal-dialog.js';
import './folder-browser.css';
import { useLocale } from '../i18n/i18n.js';

/**
 * The page's own folder picker, for a browser: a page cannot read local
 * paths, so the core lists the folders of the computer it runs on
 * (folders:browse), starting at `start` or the home folder. The person goes
 * into a subfolder, up, home or to a typed path, and chooses the folder
 * shown, or the one typed under Go to when it was not gone to yet (what
 * the field says is what is chosen). A path that cannot be listed is said
 * inline, the last folder stays on screen, and nothing is chosen.
 * Keyboard: Tab between the parts; in the list the arrow keys, Home and End
 * move, Enter opens; Escape cancels.
 *
 * It is put under <body>: it is opened from inside a form, and its Go to
 * field is a form of its own (forms do not nest).
 */
export function FolderBrowser(props: {
  title: string;
  start: string | null;
  onChoose: (path: string) => void;
  onCancel: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const goToField = useRef<HTMLInputElement>(null);
  const chooseButton = useRef<HTMLButtonElement>(null);
  const entryButtons = useRef<Array<HTMLButtonElement | null>>([]);
  const titleId = useId();
  const { t } = useLocale();
  const goToId = useId();
  const [showHidden, setShowHidden] = useState(false);
  const [path, setPath] = useState<string | undefined>(props.start ?? undefined);
  const { folders } = useStores();
  const listing = useQuery('folders:browse', { path, showHidden });
  const current = listing.data;
  /** the check of a path typed and chosen without Go */
  const typedCheck = useAction();
  const [goTo, setGoTo] = useState(props.start ?? '');
  /** the person typed under Go to since the last folder was asked for: the listing that lands keeps their text */
  const typedSinceOpen = useRef(false);
  const [active, setActive] = useState(0);
  /** after opening a subfolder its button is gone: focus goes into the new list instead of <body> */
  const focusListOnLoad = useRef(false);

  useModalDialog(dialog, goToField);

  useEffect(() => {
    if (!current) return;
    if (!typedSinceOpen.current) setGoTo(current.path);
    setActive(0);
    if (focusListOnLoad.current) {
      focusListOnLoad.current = false;
      (entryButtons.current[0] ?? chooseButton.current)?.focus();
    }
  }, [current]);

  async function choose() {
    const typed = goTo.trim();
    if (current && (typed === '' || typed === current.path)) return props.onChoose(current.path);
    const checked = await typedCheck.run(() => folders.browse({ path: typed, showHidden }));
    if (checked) props.onChoose(checked.path);
  }

  /** `focusList`: opened from the list, whose button is gone once it opens */
  function open(target: string | undefined, { focusList = false } = {}) {
    typedCheck.clearError();
    typedSinceOpen.current = false;
    focusListOnLoad.current = focusList;
    if (target === path) listing.reload();
    else setPath(target);
  }

  function submitGoTo(event: FormEvent) {
    // the dialog sits in the React tree of the form that opened it: its submit must not reach that form
    event.preventDefault();
    event.stopPropagation();
    const typed = goTo.trim();
    if (typed) open(typed);
  }

  function moveInList(event: KeyboardEvent) {
    const last = (current?.entries.length ?? 0) - 1;
    const next =
      event.key === 'ArrowDown'
        ? Math.min(active + 1, last)
        : event.key === 'ArrowUp'
          ? Math.max(active - 1, 0)
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? last
              : null;
    if (next === null || last < 0) return;
    event.preventDefault();
    setActive(next);
    entryButtons.current[next]?.focus();
  }

  return createPortal(
    <dialog
      ref={dialog}
      className="dialog folder-browser"
      aria-labelledby={titleId}
      onCancel={(event) => {
        // Escape: let React decide, so the dialog and the state never disagree
        event.preventDefault();
        props.onCancel();
      }}
    >
      <h2 id={titleId} className="folder-browser__title">
        {props.title}
      </h2>
      <form className="folder-browser__go" onSubmit={submitGoTo}>
        <label htmlFor={goToId}>{t('folderBrowser.goTo')}</label>
        <input
          id={goToId}
          ref={goToField}
          type="text"
          value={goTo}
          spellCheck={false}
          autoComplete="off"
          onChange={(event) => {
            setGoTo(event.target.value);
            typedSinceOpen.current = true;
            typedCheck.clearError();
          }}
        />
        <button type="submit" className="button">
          {t('folderBrowser.go')}
        </button>
      </form>
      <div className="folder-browser__toolbar">
        <button
          type="button"
          className="button button--small"
          disabled={!current?.parent}
          onClick={() => open(current?.parent ?? undefined)}
        >
          {t('folderBrowser.up')}
        </button>
        <button type="button" className="button button--small" onClick={() => open(current?.home)}>
          {t('folderBrowser.home')}
        </button>
        <label className="field--inline">
          <input type="checkbox" checked={showHidden} onChange={(event) => setShowHidden(event.target.checked)} />
          <span>{t('folderBrowser.showHidden')}</span>
        </label>
      </div>
      <ErrorNote error={typedCheck.error ?? listing.error} />
      <p role="status" className="folder-browser__status">
        {current ? folderListingText(current, showHidden) : listing.loading ? t('folderBrowser.loading') : ''}
      </p>
      {current && current.entries.length > 0 && (
        <ul
          className="folder-browser__list"
          aria-label={t('folderBrowser.subfoldersOf', { path: current.path })}
          onKeyDown={moveInList}
        >
          {current.entries.map((entry, index) => (
            <li key={entry.path}>
              <button
                type="button"
                ref={(button) => {
                  entryButtons.current[index] = button;
                }}
                className="folder-browser__entry"
                tabIndex={index === active ? 0 : -1}
                onFocus={() => setActive(index)}
                onClick={() => open(entry.path, { focusList: true })}
              >
                {entry.name}
              </button>
            </li>
          ))}
        </ul>
      )}
      <div className="form__actions folder-browser__actions">
        <button type="button" className="button" onClick={props.onCancel}>
          {t('common.cancel')}
        </button>
        <button
          ref={chooseButton}
          type="button"
          className="button button--primary"
          disabled={(!current && goTo.trim() === '') || typedCheck.busy}
          onClick={() => void choose()}
        >
          {t('folderBrowser.choose')}
        </button>
      </div>
    </dialog>,
    document.body,
  );
}
