export interface VirtualWindowInput {
  scrollTop: number;
  viewportHeight: number;
  rowHeight: number;
  count: number;
  /** rows rendered beyond each edge, so a fast scroll does not show blank space */
  overscan?: number;
}

export interface VirtualWindow {
  /** first rendered row */
  start: number;
  /** one past the last rendered row */
  end: number;
  /** the top of the first rendered row */
  offsetTop: number;
  /** the height of all rows together */
  totalHeight: number;
}

/**
 * Which rows of a fixed-row-height list to render: only those in view plus a
 * few on each side, so 10,000 rows cost what 30 do.
 */
export function virtualWindow(input: VirtualWindowInput): VirtualWindow {
  const { viewportHeight, rowHeight, count } = input;
  const overscan = input.overscan ?? 4;
  const totalHeight = count * rowHeight;
  if (count === 0 || rowHeight <= 0) return { start: 0, end: 0, offsetTop: 0, totalHeight: Math.max(0, totalHeight) };
  const maxScroll = Math.max(0, totalHeight - viewportHeight);
  const scrollTop = Math.min(Math.max(0, input.scrollTop), maxScroll);
  const firstVisible = Math.floor(scrollTop / rowHeight);
  const lastVisible = Math.ceil((scrollTop + Math.max(0, viewportHeight)) / rowHeight);
  const start = Math.max(0, firstVisible - overscan);
  const end = Math.min(count, Math.max(lastVisible, firstVisible + 1) + overscan);
  return { start, end, offsetTop: start * rowHeight, totalHeight };
}
