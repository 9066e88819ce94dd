import { useEffect, type RefObject } from 'react';

/**
 * Opens a native <dialog> as modal while the component is mounted: the page
 * behind it is inert and Tab stays inside. Focus starts on `initialFocus`
 * and goes back where it was when the dialog closes, unless that element is
 * gone (the row of a deleted file): then focus stays where the view puts it.
 */
export function useModalDialog(
  dialog: RefObject<HTMLDialogElement | null>,
  initialFocus: RefObject<HTMLElement | null>,
): void {
  useEffect(() => {
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const element = dialog.current;
    if (element && !element.open) element.showModal();
    initialFocus.current?.focus();
    return () => {
      if (element?.open) element.close();
      if (previous?.isConnected) previous.focus();
    };
    // once per opening: the refs are stable
  }, [dialog, initialFocus]);
}
