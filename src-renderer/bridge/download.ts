/**
 * Saves `blob` as `fileName` the way a page saves a download: a browser puts
 * it in the person's downloads, Electron asks where with the system's save
 * dialog (no `will-download` handler sets a path for it).
 */
export function saveDownload(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
