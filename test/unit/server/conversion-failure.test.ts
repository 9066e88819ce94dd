import { describe, expect, it } from 'vitest';
import { conversionFailure } from '../../../src-server/conversion/conversion-failure.js';

describe('conversionFailure', () => {
  it.each([
    [
      '/srv/media/demo-server/files/T40Fq2Zx9aBc: Invalid data found when processing input',
      'The file is not a video that can be read.',
    ],
    ['/srv/media/demo-server/files/T40Fq2Zx9aBc: Invalid argument', 'The file is not a video that can be read.'],
    [
      '[mov,mp4,m4a,3gp,3g2,mj2 @ 0x5566b979d180] moov atom not found',
      'The video is incomplete: its index (moov atom) is missing, as in a recording cut short.',
    ],
    ['the file has no video stream', 'The file has no video stream.'],
    ['/srv/media/files/abc: No such file or directory', 'The stored file could not be found.'],
    ['/srv/media/files/abc: Permission denied', 'The server could not read the stored file.'],
    [
      'Error writing trailer of /srv/media/hls/abc.work/v0/index.m3u8: No space left on device',
      'The server ran out of disk space while converting.',
    ],
    ['Unexpected end of JSON input', 'ffprobe answered with something that could not be read.'],
    ['/usr/bin/ffmpeg exited with 1', 'ffmpeg stopped without saying why.'],
    ['spawn /usr/bin/ffprobe ENOENT', 'ffmpeg could not be started on the server.'],
  ])('%s → %s', (raw, said) => {
    expect(conversionFailure(raw)).toBe(said);
  });

  it('keeps the words of a message it does not know, without any path in them', () => {
    expect(conversionFailure('Error opening output file /srv/media/hls/abc.work/v0/index.m3u8.')).toBe(
      'The conversion failed: Error opening output file.',
    );
    expect(conversionFailure('C:\\media\\files\\abc: Decoder (codec av1) not found for input stream #0:0')).toBe(
      'The conversion failed: Decoder (codec av1) not found for input stream #0:0',
    );
    expect(conversionFailure('/srv/media/files/abc: ')).toBe('The conversion failed.');
    expect(conversionFailure("Could not open '/srv/x/y.ts' for h264/avc at 1/2 speed")).toBe(
      "The conversion failed: Could not open '' for h264/avc at 1/2 speed",
    );
  });
});
