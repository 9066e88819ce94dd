import { nodeZlib } from './lazy-builtins.js';

/** One file of a zip: its name inside the archive (`/` between folders) and its bytes. */
export interface ZipEntry {
  name: string;
  data: Uint8Array;
}

/**
 * A zip archive of `entries`, deflated, as one buffer: local headers, the
 * central directory and its end record (PKWARE APPNOTE 4.3), no zip64 (an
 * entry and the whole archive stay far below 4 GiB: a support file is a few
 * megabytes). Names are UTF-8 (flag bit 11). Written here rather than taken
 * from a package because Node has both halves (zlib.crc32 and
 * deflateRawSync) and the format needs no more than these lines.
 */
export function writeZip(entries: readonly ZipEntry[], modified: Date): Buffer {
  const { crc32, deflateRawSync } = nodeZlib();
  const { time, date } = dosDateTime(modified);
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    const deflated = deflateRawSync(entry.data);
    const crc = crc32(entry.data);
    // the fields the local header and the central directory share, from "version needed" to the name's length
    const common = Buffer.alloc(26);
    common.writeUInt16LE(20, 0); // version needed: 2.0 (deflate)
    common.writeUInt16LE(0x0800, 2); // the name is UTF-8
    common.writeUInt16LE(8, 4); // deflate
    common.writeUInt16LE(time, 6);
    common.writeUInt16LE(date, 8);
    common.writeUInt32LE(crc, 10);
    common.writeUInt32LE(deflated.length, 14);
    common.writeUInt32LE(entry.data.length, 18);
    common.writeUInt16LE(name.length, 22);
    common.writeUInt16LE(0, 24); // no extra field
    const local = Buffer.concat([signature(0x04034b50), common, name, deflated]);
    const tail = Buffer.alloc(14); // comment length, disk, internal and external attributes, offset
    tail.writeUInt32LE(0o100600 * 0x10000, 6); // a regular file, rw------- (Unix mode in the high half)
    tail.writeUInt32LE(offset, 10);
    const versionMadeBy = Buffer.from([20, 3]); // 2.0 on Unix, so the attributes above are read
    centrals.push(Buffer.concat([signature(0x02014b50), versionMadeBy, common, tail, name]));
    locals.push(local);
    offset += local.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

function signature(value: number): Buffer {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32LE(value, 0);
  return bytes;
}

/** MS-DOS time and date (local time, 2-second steps, from 1980), as zip headers keep them. */
function dosDateTime(moment: Date): { time: number; date: number } {
  const year = Math.max(1980, moment.getFullYear());
  return {
    time: (moment.getHours() << 11) | (moment.getMinutes() << 5) | Math.floor(moment.getSeconds() / 2),
    date: ((year - 1980) << 9) | ((moment.getMonth() + 1) << 5) | moment.getDate(),
  };
}
