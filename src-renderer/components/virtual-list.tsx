import { useEffect, useLayoutEffect, useRef, useState, type CSSProperties, type ReactNode } from 'react';
import { useLocale } from '../i18n/i18n.js';
import { virtualWindow } from './virtual-window.js';

export interface VirtualListProps {
  count: number;
  /** every row has this height in px (CSS must agree) */
  rowHeight: number;
  /** the list's name for screen readers */
  label: string;
  className?: string;
  /** one row's content; it is put in a positioned <li>, keyed by its index */
  renderRow(index: number): ReactNode;
  /** the rows now rendered, to fetch what they need */
  onRangeChange?(start: number, end: number): void;
}

/**
 * A list of fixed-height rows that renders only those in view (and a few
 * around them). It is a real list for assistive technology: each rendered
 * row says its position in the whole with aria-posinset / aria-setsize. The
 * scrolling box is focusable so the keyboard can scroll it.
 */
export function VirtualList(props: VirtualListProps) {
  const { count, rowHeight, onRangeChange } = props;
  const { t } = useLocale();
  const box = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  // the box is at most the window's height: enough rows until the observer says how tall it is
  const [viewportHeight, setViewportHeight] = useState(() => window.innerHeight);
  const frame = useRef<number | null>(null);

  useLayoutEffect(() => {
    const element = box.current;
    if (!element) return;
    // no clientHeight read here: it would force a layout of the page in the middle of the first render;
    // the observer reports the box once it is laid out
    const observer = new ResizeObserver(() => setViewportHeight(element.clientHeight || 600));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  useEffect(
    () => () => {
      if (frame.current !== null) cancelAnimationFrame(frame.current);
    },
    [],
  );

  const range = virtualWindow({ scrollTop, viewportHeight, rowHeight, count });

  useEffect(() => {
    onRangeChange?.(range.start, range.end);
  }, [onRangeChange, range.start, range.end]);

  function onScroll() {
    // one state update per frame however often the browser reports scrolling
    if (frame.current !== null) return;
    frame.current = requestAnimationFrame(() => {
      frame.current = null;
      if (box.current) setScrollTop(box.current.scrollTop);
    });
  }

  const rows: ReactNode[] = [];
  for (let index = range.start; index < range.end; index++) {
    // contain: a row's own changes (progress at 10 Hz) lay out and paint that row alone, not the list
    const style: CSSProperties = {
      position: 'absolute',
      top: index * rowHeight,
      left: 0,
      right: 0,
      height: rowHeight,
      contain: 'strict',
    };
    rows.push(
      <li key={index} style={style} aria-setsize={count} aria-posinset={index + 1}>
        {props.renderRow(index)}
      </li>,
    );
  }

  return (
    <div
      ref={box}
      className={`virtual-list ${props.className ?? ''}`}
      onScroll={onScroll}
      tabIndex={0}
      role="region"
      aria-label={t('common.scrollable', { label: props.label })}
      // as tall as the rows, up to the room the page gives it (--virtual-list-max)
      style={{ height: `min(${range.totalHeight + 2}px, var(--virtual-list-max, 70vh))` }}
    >
      <ul aria-label={props.label} style={{ position: 'relative', height: range.totalHeight, margin: 0, padding: 0 }}>
        {rows}
      </ul>
    </div>
  );
}
