import { useId } from 'react';
import { PER_PAGE_OPTIONS, pageSummary, type PerPage } from '../text/file-columns.js';
import { useLocale } from '../i18n/i18n.js';
import './pagination.css';

/**
 * Previous/next through a paged list, "Page X of Y · N files", and, when
 * `onPerPage` is given, the page size (25, 50 or 100, the API's choices).
 */
export function Pagination(props: {
  label: string;
  page: number;
  lastPage: number;
  total: number;
  perPage?: PerPage;
  onPage: (page: number) => void;
  onPerPage?: (perPage: PerPage) => void;
  busy?: boolean;
  summary?: string;
}) {
  const selectId = useId();
  const { t, locale } = useLocale();
  const lastPage = Math.max(1, props.lastPage);
  return (
    <nav className="pagination" aria-label={props.label}>
      {props.onPerPage && props.perPage !== undefined && (
        <span className="pagination__size">
          <label htmlFor={selectId}>{t('pagination.perPage')}</label>
          <select
            id={selectId}
            value={props.perPage}
            onChange={(event) => props.onPerPage!(Number(event.target.value) as PerPage)}
          >
            {PER_PAGE_OPTIONS.map((size) => (
              <option key={size} value={size}>
                {size}
              </option>
            ))}
          </select>
        </span>
      )}
      <span className="pagination__summary" aria-live="polite">
        {props.summary ?? pageSummary({ page: props.page, lastPage, total: props.total }, locale)}
      </span>
      <span className="pagination__buttons">
        <button
          type="button"
          className="button button--small"
          disabled={props.page <= 1 || props.busy}
          onClick={() => props.onPage(props.page - 1)}
        >
          {t('pagination.previous')}
        </button>
        <button
          type="button"
          className="button button--small"
          disabled={props.page >= lastPage || props.busy}
          onClick={() => props.onPage(props.page + 1)}
        >
          {t('pagination.next')}
        </button>
      </span>
    </nav>
  );
}
