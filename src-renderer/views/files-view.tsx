import { useEffect, useId, useLayoutEffect, useRef, useState } from 'react';
import { Trans } from 'react-i18next';
import type { MediaFile } from '../../src-shared/api/index.js';
import type { AccountView } from '../../src-shared/ipc/ipc-contract.js';
import { useQuery } from '../bridge/bridge-context.js';
import { ErrorNote } from '../components/error-note.js';
import { FileDetails } from '../components/file-details.js';
import { Pagination } from '../components/pagination.js';
import { FILE_COLUMNS, type FileColumn, type PerPage } from '../text/file-columns.js';
import { useLocale } from '../i18n/i18n.js';
import { accountLabel } from '../text/account-label.js';
import './files-view.css';

/** Typing pauses this long before a search is sent: one request per word, not per key. */
const SEARCH_DEBOUNCE_MS = 300;
const SEARCH_MAX = 255;

function useDebounced<T>(value: T, ms: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return debounced;
}

/** A column's cells: numbers aligned right; the column named, so a narrow window can leave it out. */
function columnClass(column: FileColumn): string {
  return `files-table__column--${column.id}${column.numeric ? ' files-table__number' : ''}`;
}

/**
 * The account's files on the server: search, pages of 25/50/100, and a
 * details panel for the chosen file with its conversion status, the edit
 * form, links and delete. A search opened from outside the app
 * (media-sync://files?search=…) fills in the search field.
 */
export function FilesView(props: {
  account: AccountView;
  /**
   * The search the address opened the view with (`#/files?search=…`, a
   * folder's recent file): its first search, so the first page it asks for
   * and shows is that search's, not every file's
   */
  initialSearch: string | null;
  openedSearch: { value: string | null } | null;
  onOpenedSearchTaken: () => void;
}) {
  const { account, openedSearch, onOpenedSearchTaken } = props;
  const [search, setSearch] = useState(() => props.initialSearch ?? openedSearch?.value ?? '');
  // the page belongs to the search it was chosen for: a new search starts on its first page
  const [paging, setPaging] = useState({ search: '', page: 1 });
  const [perPage, setPerPage] = useState<PerPage>(25);
  const [selected, setSelected] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const searchBox = useRef<HTMLInputElement>(null);
  /** the file whose panel just closed: its row takes focus back as soon as the panel is gone */
  const returnFocusTo = useRef<string | null>(null);
  const searchId = useId();
  const { t, locale } = useLocale();
  const debounced = useDebounced(search.trim(), SEARCH_DEBOUNCE_MS);
  const page = paging.search === debounced ? paging.page : 1;
  const setPage = (next: number) => setPaging({ search: debounced, page: next });
  const files = useQuery('files:list', {
    accountId: account.id,
    search: debounced || undefined,
    page,
    perPage,
  });

  const list = files.data?.data ?? [];
  const meta = files.data?.meta;
  const lastPage = meta?.last_page ?? 1;
  const total = meta?.total ?? list.length;

  useEffect(() => {
    if (!openedSearch) return;
    if (openedSearch.value !== null) setSearch(openedSearch.value);
    searchBox.current?.focus();
    onOpenedSearchTaken();
  }, [openedSearch, onOpenedSearchTaken]);

  // deleting the last file of the last page: step back to a page that has files
  useEffect(() => {
    if (files.data && list.length === 0 && page > 1 && page > lastPage) setPage(Math.max(1, lastPage));
  }, [files.data, list.length, page, lastPage]);

  useLayoutEffect(() => {
    const fileId = returnFocusTo.current;
    if (selected || !fileId) return;
    returnFocusTo.current = null;
    const button = document.querySelector<HTMLElement>(`[data-file-id="${CSS.escape(fileId)}"]`);
    (button ?? searchBox.current)?.focus();
  }, [selected]);

  function replaceFile(updated: MediaFile) {
    files.set((previous) =>
      previous
        ? { ...previous, data: previous.data.map((file) => (file.id === updated.id ? { ...file, ...updated } : file)) }
        : previous!,
    );
  }

  function removeFile(fileId: string) {
    const name = list.find((file) => file.id === fileId)?.name;
    files.set((previous) =>
      previous ? { ...previous, data: previous.data.filter((file) => file.id !== fileId) } : previous!,
    );
    setSelected(null);
    setAnnouncement(name ? t('files.deleted', { name }) : t('files.deletedUnnamed'));
    searchBox.current?.focus();
    files.reload();
  }

  return (
    <div className={`files-view${selected ? ' files-view--with-details' : ''}`}>
      <div className="files-view__list">
        <div className="toolbar">
          <h1 className="files-view__title">{t('files.title')}</h1>
          <span className="toolbar__spacer" />
          <label htmlFor={searchId} className="visually-hidden">
            {t('files.searchLabel')}
          </label>
          <input
            ref={searchBox}
            id={searchId}
            type="search"
            className="files-view__search"
            placeholder={t('files.searchPlaceholder')}
            maxLength={SEARCH_MAX}
            value={search}
            onChange={(event) => setSearch(event.target.value)}
          />
          <button type="button" className="button" onClick={files.reload} disabled={files.loading}>
            {t('common.refresh')}
          </button>
        </div>
        <p className="visually-hidden" role="status">
          {announcement}
        </p>
        {files.error && (
          <div className="files-view__error">
            <ErrorNote error={files.error} />
            <button type="button" className="button button--small" onClick={files.reload}>
              {t('common.tryAgain')}
            </button>
          </div>
        )}
        {!files.data && !files.error && <p className="muted">{t('files.loading')}</p>}
        {files.data && list.length === 0 && (
          <div className="files-view__empty card">
            {debounced ? (
              <>
                <p>{t('files.noMatch', { search: debounced })}</p>
                <button type="button" className="button" onClick={() => setSearch('')}>
                  {t('files.clearSearch')}
                </button>
              </>
            ) : (
              <>
                <p>{t('files.empty')}</p>
                <p className="muted">
                  <Trans
                    i18nKey="files.emptyHint"
                    components={{ queue: <a href="#/queue" />, imports: <a href="#/imports" /> }}
                  />
                </p>
              </>
            )}
          </div>
        )}
        {list.length > 0 && (
          <div className="files-view__table-wrap">
            <table className="table files-table" aria-busy={files.loading}>
              <caption className="visually-hidden">
                {debounced
                  ? t('files.captionSearch', { account: accountLabel(account), search: debounced })
                  : t('files.caption', { account: accountLabel(account) })}
              </caption>
              <thead>
                <tr>
                  {FILE_COLUMNS.map((column) => (
                    <th key={column.id} scope="col" className={columnClass(column)}>
                      {column.label}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {list.map((file) => (
                  <tr key={file.id} className={file.id === selected ? 'files-table__row--selected' : undefined}>
                    {FILE_COLUMNS.map((column) =>
                      column.id === 'name' ? (
                        <th key={column.id} scope="row" className="files-table__name">
                          <button
                            type="button"
                            className="link-button"
                            data-file-id={file.id}
                            aria-current={file.id === selected ? 'true' : undefined}
                            onClick={() => setSelected(file.id)}
                          >
                            {column.cell(file, locale)}
                          </button>
                        </th>
                      ) : (
                        <td key={column.id} className={columnClass(column)}>
                          {column.cell(file, locale)}
                        </td>
                      ),
                    )}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {files.data && (total > 0 || page > 1) && (
          <Pagination
            label={t('files.pagesLabel')}
            // the page of the rows on screen: while the next one loads, the summary still describes these
            page={meta?.current_page ?? page}
            lastPage={lastPage}
            total={total}
            perPage={perPage}
            busy={files.loading}
            onPage={setPage}
            onPerPage={(size) => {
              setPerPage(size);
              setPage(1);
            }}
          />
        )}
      </div>
      {selected && (
        <FileDetails
          key={selected}
          accountId={account.id}
          fileId={selected}
          onClose={() => {
            returnFocusTo.current = selected;
            setSelected(null);
          }}
          onChanged={replaceFile}
          onDeleted={removeFile}
        />
      )}
    </div>
  );
}
