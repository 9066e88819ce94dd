import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** A real H.264/AAC MP4 of `seconds`, made with ffmpeg's test sources. */
export async function makeTestVideo(dir: string, seconds = 2): Promise<Buffer> {
  const path = join(dir, `test-${seconds}s.mp4`);
  await run('ffmpeg', [
    '-v',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    `testsrc=duration=${seconds}:size=320x240:rate=15`,
    '-f',
    'lavfi',
    '-i',
    `sine=duration=${seconds}`,
    '-shortest',
    '-c:v',
    'libx264',
    '-pix_fmt',
    'yuv420p',
    '-c:a',
    'aac',
    path,
  ]);
  return readFile(path);
}
