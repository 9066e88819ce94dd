/**
 * The multipart form of the Node floors (node-floor.ts, upload-floor.ts), as
 * the client's requests carry it: the text fields, then the file part's
 * headers (its bytes follow), and the closing boundary. Written out here,
 * not taken from the client's multipart-body.ts, so the floors run no app
 * code.
 */
export function formHead(boundary: string, fields: Record<string, string>, fileName: string): string {
  let head = '';
  for (const [name, value] of Object.entries(fields)) {
    head += `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  }
  return `${head}--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: application/octet-stream\r\n\r\n`;
}

export function formTail(boundary: string): string {
  return `\r\n--${boundary}--\r\n`;
}
