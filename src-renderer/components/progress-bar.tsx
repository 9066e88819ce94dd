import './progress-bar.css';

/**
 * A progress bar that moves for little: `<progress>` is laid out and
 * repainted with each value, here only the fill's transform changes.
 * Screen readers get a `progressbar` with the whole percent.
 */
export function ProgressBar({ value, max, label }: { value: number; max: number; label: string }) {
  const fraction = max > 0 ? Math.min(1, Math.max(0, value / max)) : 0;
  return (
    <div
      className="progress-bar"
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      // rounded down: not 100 before the last byte
      aria-valuenow={Math.floor(fraction * 100)}
    >
      <div className="progress-bar__fill" style={{ transform: `scaleX(${fraction})` }} />
    </div>
  );
}
