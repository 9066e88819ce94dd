import { statfs } from 'node:fs/promises';

/**
 * File systems on which inotify does not hear what other machines (or the
 * other side of a bridge) change, by the `type` `statfs` answers on Linux
 * (the magic numbers of linux/magic.h and the file systems' own headers).
 * A watched folder on one of them is checked by polling.
 */
const WITHOUT_CHANGE_EVENTS: ReadonlyMap<number, string> = new Map([
  [0x6969, 'NFS'],
  [0x517b, 'SMB'],
  [0xff534d42, 'SMB/CIFS'],
  [0xfe534d42, 'SMB2'],
  // 9p: WSL 2's Windows drives (drvfs), VM shares (virtio-9p)
  [0x01021997, '9p'],
  // WSL 1's Windows drives
  [0x53464846, 'WSL drvfs'],
  // sshfs, rclone mount, s3fs, gvfs and every other FUSE file system
  [0x65735546, 'FUSE'],
  [0x00c36400, 'Ceph'],
  [0x6b414653, 'AFS'],
  [0x5346414f, 'AFS'],
  [0x73757245, 'Coda'],
  [0x786f4256, 'VirtualBox shared folder'],
  [0x0bd00bd0, 'Lustre'],
  [0x01161970, 'GFS2'],
  [0x7461636f, 'OCFS2'],
]);

/** The name of a folder's file system when it gives no change events, else null (injectable: tests mark a folder so). */
export type FileSystemProbe = (path: string) => Promise<string | null>;

/**
 * The name of the folder's file system when it gives no change events for
 * what others write (a network share, 9p, FUSE), or null. Only Linux answers
 * `statfs` with these numbers: elsewhere null (macOS's FSEvents and Windows'
 * ReadDirectoryChangesW report a share's changes made on this machine; a
 * folder there can still be set to "check by polling"), and where the look
 * fails.
 */
export const detectFileSystemWithoutEvents: FileSystemProbe = async (path) => {
  if (process.platform !== 'linux') return null;
  try {
    // `type` is the kernel's f_type; read as unsigned, as the magic numbers are written
    return WITHOUT_CHANGE_EVENTS.get((await statfs(path)).type >>> 0) ?? null;
  } catch {
    return null;
  }
};
