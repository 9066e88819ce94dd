/**
 * ffmpeg's and ffprobe's last error lines, and the worker's own failures, as
 * the file's owner reads them in `conversion.error`. ffmpeg names the file by
 * its path (`/srv/data/files/T40F…: Invalid data found when processing
 * input`), which is the server's business: each known message becomes a
 * sentence without it, and whatever else ffmpeg says keeps its words with
 * every absolute path cut out.
 */
const REASONS: ReadonlyArray<readonly [RegExp, string]> = [
  [/^spawn /, 'ffmpeg could not be started on the server.'],
  // what ffprobe says of bytes no demuxer can read, or of those one took for its format and then could not
  [/Invalid data found when processing input|Invalid argument$/i, 'The file is not a video that can be read.'],
  [/moov atom not found/i, 'The video is incomplete: its index (moov atom) is missing, as in a recording cut short.'],
  [/has no video stream/i, 'The file has no video stream.'],
  [/No such file or directory|ENOENT/i, 'The stored file could not be found.'],
  [/Permission denied|EACCES|EPERM/i, 'The server could not read the stored file.'],
  [/No space left on device|ENOSPC/i, 'The server ran out of disk space while converting.'],
  [/JSON/, 'ffprobe answered with something that could not be read.'],
  [/exited with (-?\d+|null)$/, 'ffmpeg stopped without saying why.'],
];

/** An absolute path (POSIX or Windows) where a word starts, with the `: ` ffmpeg puts after it. */
const ABSOLUTE_PATH = /(?<=^|[\s'"([])(?:[A-Za-z]:\\|\/)[^\s'"]*[^\s'".,:;)](?::\s)?/g;

export function conversionFailure(raw: string): string {
  const known = REASONS.find(([pattern]) => pattern.test(raw));
  if (known) return known[1];
  const words = raw
    .replace(ABSOLUTE_PATH, '')
    .replace(/\s+/g, ' ')
    .replace(/ ([.,;:])/g, '$1')
    .trim();
  return words ? `The conversion failed: ${words}` : 'The conversion failed.';
}
