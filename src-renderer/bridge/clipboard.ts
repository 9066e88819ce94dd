/**
 * Puts `text` on the clipboard; false when the page may not (no permission, not focused).
 * In a browser the daemon cannot reach the person's clipboard, so the page writes it itself.
 */
export async function writeClipboard(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}
