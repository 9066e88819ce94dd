import { useLayoutEffect, useRef, type Ref } from 'react';
import './progress-bar.css';

export interface ProgressBarProps {
  value: number;
  max: number;
  /** what is in progress, for screen readers ("Progress of clip.mp4") */
  label: string;
  /**
   * Newer values between renders: each one moves the fill straight in the
   * DOM (a transform, no React render, no layout), the way VS Code's progress
   * bar moves. The next render catches up with the latest.
   */
  watch?: (move: (value: number, max: number) => void) => () => void;
  /** the `progressbar` element, for a caller that updates its `aria-valuenow` between renders (`progressPercent`) */
  ref?: Ref<HTMLDivElement>;
}

/**
 * A progress bar that can move at 10 Hz for almost nothing: `<progress>` is
 * repainted and laid out with each value, here only the fill's transform
 * changes. Screen readers get a `progressbar` with the percentage of the last
 * render, or of the caller's own update (once a second in the queue), not ten
 * announcements a second.
 *
 * In the daemon's picture of the Queue (first-paint.tsx) the page's CSP
 * drops style attributes: there the fill is empty, or full by its class.
 */
export function ProgressBar({ value, max, label, watch, ref }: ProgressBarProps) {
  const fill = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    if (!watch) return;
    return watch((next, nextMax) => {
      if (fill.current) fill.current.style.transform = scale(next, nextMax);
    });
  }, [watch]);
  return (
    <div
      ref={ref}
      className="progress-bar"
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={progressPercent(value, max)}
    >
      <div
        ref={fill}
        className={fraction(value, max) >= 1 ? 'progress-bar__fill progress-bar__fill--full' : 'progress-bar__fill'}
        style={{ transform: scale(value, max) }}
      />
    </div>
  );
}

/** The whole percent a bar's `aria-valuenow` says, rounded down: not 100 before the last byte. */
export function progressPercent(value: number, max: number): number {
  return Math.floor(fraction(value, max) * 100);
}

function fraction(value: number, max: number): number {
  return max > 0 ? Math.min(1, Math.max(0, value / max)) : 0;
}

function scale(value: number, max: number): string {
  return `scaleX(${fraction(value, max)})`;
}
