import { describe, expect, it } from 'vitest';
import { fieldReasons, refusedLinks } from '../../../src-shared/model/field-reasons.js';

describe('fieldReasons', () => {
  it("reads the service's reasons per field, one sentence or several", () => {
    expect(fieldReasons({ 'urls.1': ['The target address is not allowed.'], name: 'Too long.' })).toEqual({
      'urls.1': ['The target address is not allowed.'],
      name: ['Too long.'],
    });
  });

  it('gives nothing for details of another shape: the message is then all there is', () => {
    for (const details of [undefined, null, 'text', ['a'], { 'urls.0': [3, null] }, { 'urls.0': '' }]) {
      expect(fieldReasons(details)).toBeUndefined();
    }
  });

  it('keeps a hostile answer small: at most 100 fields, 5 reasons each, 500 characters a reason', () => {
    const many = Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`f${i}`, Array(9).fill('x'.repeat(9_000))]));
    const fields = fieldReasons(many)!;
    expect(Object.keys(fields)).toHaveLength(100);
    expect(fields['f0']).toHaveLength(5);
    expect(fields['f0']![0]).toHaveLength(500);
  });
});

describe('refusedLinks', () => {
  const urls = ['https://a.example/1.mp4', 'http://10.0.0.1/v.mp4', 'https://b.example/2.mp4'];

  it('names each refused link with its place in the request, in order', () => {
    const fields = { 'urls.2': ['Not a video.'], 'urls.1': ['Private address.'], name: ['Too long.'] };
    expect(refusedLinks({ fields }, urls)).toEqual([
      { index: 1, url: urls[1], reasons: ['Private address.'] },
      { index: 2, url: urls[2], reasons: ['Not a video.'] },
    ]);
  });

  it('ignores fields that name no link of the request', () => {
    expect(refusedLinks({ fields: { 'urls.7': ['x'], 'urls.-1': ['x'], 'urls.1.host': ['x'] } }, urls)).toEqual([]);
    expect(refusedLinks({}, urls)).toEqual([]);
  });
});
