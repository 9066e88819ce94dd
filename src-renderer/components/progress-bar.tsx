import './progress-bar.css';

/**
 * A progress bar that moves for little: `<progress>` is laid out and
 * repainted with each value, here only the fills' transforms change. Two
 * fills: what is confirmed (solid) and what is sent beyond it (lighter),
 * so a pause, which keeps only the confirmed part, never moves the bar
 * back unseen. Screen readers get a `progressbar` with the whole percent
 * sent and a text: those of `said` when given (a row's words, which move
 * once a second while the fills follow each progress batch).
 */
export function ProgressBar(props: {
  confirmed: number;
  sent: number;
  max: number;
  label: string;
  said?: { sent: number; text: string | undefined };
}) {
  const part = (value: number) => (props.max > 0 ? Math.min(1, Math.max(0, value / props.max)) : 0);
  return (
    <div
      className="progress-bar"
      role="progressbar"
      aria-label={props.label}
      aria-valuemin={0}
      aria-valuemax={100}
      // rounded down: not 100 before the last byte
      aria-valuenow={Math.floor(part(props.said?.sent ?? props.sent) * 100)}
      aria-valuetext={props.said?.text}
    >
      <div
        className="progress-bar__fill progress-bar__fill--sent"
        style={{ transform: `scaleX(${part(props.sent)})` }}
      />
      <div className="progress-bar__fill" style={{ transform: `scaleX(${part(props.confirmed)})` }} />
    </div>
  );
}
