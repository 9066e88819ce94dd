import type { MediaFile, MediaFileDetail } from '../../src-shared/api/index.js';
import type { FileRow } from '../db/files.js';

/** The File object of the spec, with its links on the file host. */
export function presentFile(row: FileRow, fileHost: string): MediaFile {
  const base = `${fileHost}/${row.public_id}`;
  return {
    id: row.public_id,
    name: row.name,
    filename: row.filename,
    mime: row.mime,
    extension: row.extension,
    size_bytes: row.size_bytes,
    visibility: row.visibility,
    password_protected: row.password_hash !== null,
    allow_online_watch: row.allow_online_watch === 1,
    downloads: row.downloads,
    stream_views: row.stream_views,
    urls: { page: `${base}/file`, watch: `${base}/watch`, embed: `${base}/embed` },
  };
}

/** GET /files/{id} and PATCH: the File plus its description (not in list items, per the spec). */
export function presentFileDetail(row: FileRow, fileHost: string): MediaFileDetail {
  return { ...presentFile(row, fileHost), description: row.description };
}
