import { describe, expect, it } from 'vitest';
import { bodyRefusal, labelRefusal, mediaTypeEssence } from '../../../src-server/remote/content-check.js';

const mp4Head = Buffer.concat([Buffer.from([0, 0, 0, 0x20]), Buffer.from('ftypisom'), Buffer.alloc(64)]);

describe('labelRefusal', () => {
  it.each(['video/mp4', 'video/webm', 'application/octet-stream', 'binary/octet-stream', 'application/mp4', ''])(
    'accepts %j',
    (essence) => expect(labelRefusal(essence)).toBeNull(),
  );
  it.each(['text/html', 'application/javascript', 'image/png', 'application/json', 'application/vnd.apple.mpegurl'])(
    'refuses %s',
    (essence) => expect(labelRefusal(essence)).toContain('not a video'),
  );
  it('reads the essence of a header with parameters', () => {
    expect(mediaTypeEssence('Video/MP4; codecs="avc1"')).toBe('video/mp4');
  });
});

describe('bodyRefusal', () => {
  it.each([
    ['<!DOCTYPE html><html>', 'HTML or script'],
    ['\uFEFF  <script>alert(1)</script>', 'HTML or script'],
    ['#!/bin/sh\nrm -rf /', 'HTML or script'],
    ['function x() {}', 'HTML or script'],
    ['{"error": "nope"}', 'HTML or script'],
    ['just some words of plain text', 'text'],
  ])('refuses %j whatever the label', (body, words) => {
    expect(bodyRefusal(Buffer.from(body), 'video/mp4')).toContain(words);
  });

  it('accepts a video container under an opaque label', () => {
    expect(bodyRefusal(mp4Head, 'application/octet-stream')).toBeNull();
  });

  it('refuses unknown binary under an opaque label, accepts it labelled as video', () => {
    const binary = Buffer.from([0, 1, 2, 3, 250, 251, 252, 0, 9]);
    expect(bodyRefusal(binary, 'application/octet-stream')).toContain('not a known video format');
    expect(bodyRefusal(binary, 'video/mp4')).toBeNull();
  });
});
