/**
 * The quiet "Saved." / "Copied." line after an action. The element stays in
 * the page while empty, so a screen reader announces each new text in it.
 */
export function StatusNote({ text }: { text: string | null | undefined }) {
  return (
    <p role="status" className={text ? 'settings__saved' : 'visually-hidden'}>
      {text}
    </p>
  );
}
