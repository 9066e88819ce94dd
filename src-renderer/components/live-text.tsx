import { Children, useLayoutEffect, useRef, type ReactNode } from 'react';

/** A text written into `element` only when it differs: its own text node's value, so no layout object is made anew. */
export function writeText(element: HTMLElement | null, text: string): void {
  if (!element || element.textContent === text) return;
  const node = element.firstChild;
  if (node && node === element.lastChild && node.nodeType === Node.TEXT_NODE) node.nodeValue = text;
  else element.textContent = text;
}

/**
 * Words that change more often than their component renders (the Queue's
 * speed, each second): each text `watch` hands over is written straight
 * into the element (a `<strong>`), with no React render. A render writes its
 * own words.
 */
export function LiveText({
  children,
  watch,
}: {
  /** the words as of this render (a `<Trans>` slot passes them as children) */
  children?: ReactNode;
  watch: (write: (text: string) => void) => () => void;
}) {
  const element = useRef<HTMLElement>(null);
  useLayoutEffect(() => watch((text) => writeText(element.current, text)), [watch]);
  // a tick may have written newer words since React last did: React writes only what changed between its renders
  const words = Children.toArray(children).join('');
  useLayoutEffect(() => writeText(element.current, words));
  return <strong ref={element}>{children}</strong>;
}
