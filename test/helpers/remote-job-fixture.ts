import type { RemoteJob } from '../../src-shared/api/index.js';

/** An import job as the service lists it: pending, stage `queued`, unless told otherwise. */
export function remoteJob(patch: Partial<RemoteJob> = {}): RemoteJob {
  return {
    id: '00000000-0000-4000-8000-000000000001',
    host: 'cdn.example.com',
    name: 'clip.mp4',
    status: 'pending',
    stage: 'queued',
    attempts: 0,
    bytes_downloaded: 0,
    bytes_total: null,
    progress_percent: null,
    error: null,
    file_id: null,
    ...patch,
  };
}
