import { describe, expect, it } from 'vitest';
import { MAX_LINE_BYTES, lineReader, ownerSocketPath } from '../../../src-main/core/owner-socket-path.js';

describe('the owner socket', () => {
  it('is a socket file in the data folder, or a named pipe named after it on Windows', () => {
    expect(ownerSocketPath('/home/ada/.config/media-sync', 'linux')).toBe('/home/ada/.config/media-sync/owner.sock');
    const pipe = ownerSocketPath('C:\\Users\\Ada\\AppData\\Roaming\\media-sync', 'win32');
    expect(pipe).toMatch(/^\\\\\.\\pipe\\media-sync-[0-9a-f]{16}$/);
    // the same folder, however its letters are cased, is the same pipe
    expect(ownerSocketPath('c:\\users\\ada\\appdata\\roaming\\media-sync', 'win32')).toBe(pipe);
  });

  it('reads lines split anywhere across pieces, and gives up on a line past the limit', () => {
    const lines: string[] = [];
    let overflows = 0;
    const read = lineReader(
      (line) => lines.push(line),
      () => overflows++,
    );
    read(Buffer.from('{"id":1}\n{"id"'));
    read(Buffer.from(':2}\n\n{"na'));
    read(Buffer.from('me":"é"}\n'));
    expect(lines).toEqual(['{"id":1}', '{"id":2}', '', '{"name":"é"}']);
    read(Buffer.alloc(MAX_LINE_BYTES + 1, 'x'));
    expect(overflows).toBe(1);
    read(Buffer.from('{"id":3}\n'));
    expect(lines.at(-1)).toBe('{"id":3}');
  });
});
