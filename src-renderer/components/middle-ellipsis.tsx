import { memo } from 'react';
import { splitForEllipsis } from '../text/middle-ellipsis.js';
import './middle-ellipsis.css';

/**
 * A name that keeps its start and its end when room runs out
 * ("IMG_2024…0042.JPG"), CSS doing the cutting. Its text is the whole name,
 * for screen readers and copying; the pointer sees it whole in the title,
 * and the keyboard by focusing it (one Tab stop), when it shows it all.
 * Memoized: a queue row draws its words again each second while it
 * uploads, and its name, split by graphemes here, stays the same.
 */
export const MiddleEllipsis = memo(function MiddleEllipsis({ text, className }: { text: string; className?: string }) {
  const { head, tail } = splitForEllipsis(text);
  return (
    <span className={`middle-ellipsis ${className ?? ''}`} title={text} tabIndex={0}>
      <span className="middle-ellipsis__head">{head}</span>
      {tail && <span className="middle-ellipsis__tail">{tail}</span>}
    </span>
  );
});
