import { describe, expect, it } from 'vitest';
import { splitForEllipsis } from '../../../../src-renderer/text/middle-ellipsis.js';

describe('a name cut for a middle ellipsis', () => {
  it('keeps the extension and the four characters before it whole, the rest to shorten', () => {
    expect(splitForEllipsis('IMG_2024_summer_holiday_0042.JPG')).toEqual({
      head: 'IMG_2024_summer_holiday_',
      tail: '0042.JPG',
    });
    expect(splitForEllipsis('holiday-video.final.mp4')).toEqual({ head: 'holiday-video.f', tail: 'inal.mp4' });
    // a long extension keeps more; one with none keeps eight
    expect(splitForEllipsis('the-recording-of-tuesday.matroska').tail).toBe('sday.matroska');
    expect(splitForEllipsis('a_name_without_any_extension').tail).toBe('xtension');
  });

  it('leaves a short name whole, and never splits a letter from its accent (NFD)', () => {
    expect(splitForEllipsis('clip.mp4')).toEqual({ head: 'clip.mp4', tail: '' });
    const nfd = 'Sommerferien_am_Meer_Ausflug_Übersee.mp4'.normalize('NFD');
    const { head, tail } = splitForEllipsis(nfd);
    expect(head + tail).toBe(nfd);
    expect(tail).toBe('rsee.mp4');
    const accented = 'Fotos_vom_Strand_und_café.mp4'.normalize('NFD');
    expect(splitForEllipsis(accented).tail).toBe('café.mp4'.normalize('NFD'));
  });
});
