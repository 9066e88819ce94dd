import Database from 'better-sqlite3';
import { link, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Engine } from '../../../src-main/core/engine.js';
import { writeRandomFile } from '../../helpers/engine-fixture.js';
import { waitFor } from '../../helpers/local-http-server.js';
import { namesAsOnDisk } from '../../helpers/older-database.js';
import { openWatchedFolderBench, type WatchedFolderBench } from '../../helpers/watched-folder.js';

const NAME = 'Café déjà vu.txt';
const NFC = NAME.normalize('NFC');
const NFD = NAME.normalize('NFD');

/**
 * Names in NFD (as macOS writes them) reach the service composed (NFC), and
 * the app takes two spellings of one name for one file (docs/uploads.md, Names).
 */
describe('a watched file whose name is decomposed (NFD)', () => {
  let bench: WatchedFolderBench;

  beforeEach(async () => {
    bench = await openWatchedFolderBench('media-sync-names-');
    expect(NFC).not.toBe(NFD);
  });

  afterEach(() => bench.close());

  const at = (name: string) => join(bench.folder.path, name);
  const serverNames = async () => (await bench.serverFiles()).map((file) => file.filename).sort();

  it('reaches the service in NFC, in one request and in chunks: the search for "Café" finds both', async () => {
    // 1 MB chunks: the chunked file's original name goes in each of its three chunks
    const { engine, watched } = await bench.watch({}, { chunkSize: 1_000_000 });
    await writeFile(at(NFD), 'a decomposed name');
    await writeRandomFile(at(`Café chunked.bin`.normalize('NFD')), 2_500_000);
    await bench.uploadsDone(engine, 2);
    expect(await readdir(bench.folder.path)).toContain(NFD);

    const found = await bench.serverFiles('Café'.normalize('NFC'));
    expect(found.map((file) => [file.filename, file.name]).sort()).toEqual([
      ['Café chunked.bin'.normalize('NFC'), 'Café chunked.bin'.normalize('NFC')],
      [NFC, NFC],
    ]);
    const sent = bench.server.server.uploadLog.entries();
    expect(sent).toHaveLength(4);
    expect(sent.every((entry) => entry.fileName === entry.fileName.normalize('NFC'))).toBe(true);
    // the queue and the folder's recent files say the name as the service has it
    expect(engine.uploads.list().map((item) => item.fileName)).toContain(NFC);
    await waitFor(() => engine.folderStatus.status(watched.id)?.recent.find((file) => file.name === NFC));
  });

  it('is one file with its NFC spelling when both hold the same content; another file, uploaded once, when not', async () => {
    const { engine } = await bench.watch();
    await writeFile(at(NFD), 'the same bytes');
    await bench.uploadsDone(engine, 1);
    // Linux keeps both spellings as two names in one folder: the same content under the other is the same file
    await writeFile(at(NFC), 'the same bytes');
    await engine.sync.rescan();
    await engine.sync.whenSettled();
    await engine.queue.whenIdle();
    expect(bench.server.server.uploadLog.entries()).toHaveLength(1);

    // other content under the other spelling: a file of its own, uploaded once, and neither again later
    await writeFile(at(NFC), 'other bytes, a file of its own');
    await bench.uploadsDone(engine, 2);
    engine.queue.clearFinished();
    for (let round = 0; round < 2; round++) {
      await engine.sync.rescan();
      await engine.sync.whenSettled();
      await engine.queue.whenIdle();
    }
    expect(engine.uploads.list()).toEqual([]);
    expect(await serverNames()).toEqual([NFC, NFC]);
    expect(bench.server.server.uploadLog.entries()).toHaveLength(2);
  });

  it('resumes its unfinished upload when enqueued under the other spelling of one file on disk, not when it is another file', async () => {
    const { engine } = await bench.watch({}, { settleMs: 60_000 });
    await engine.queue.pauseAll(null);
    const accountId = bench.fixture!.accountId;
    await writeFile(at(NFD), 'one file');
    const first = await engine.queue.enqueue({ accountId, path: at(NFD) });
    // a file system that ignores the difference (macOS, Windows) opens one file under both: a hard link here
    await link(at(NFD), at(NFC));
    const again = await engine.queue.enqueue({ accountId, path: at(NFC) });
    expect([first.outcome, again.outcome, again.item.id]).toEqual(['new', 'resumed', first.item.id]);
    // Linux's two files under the two spellings: each its own upload
    await writeFile(at(`twin ${NFD}`), 'one twin');
    await writeFile(at(`twin ${NFC}`), 'the other twin');
    const twins = [
      await engine.queue.enqueue({ accountId, path: at(`twin ${NFD}`) }),
      await engine.queue.enqueue({ accountId, path: at(`twin ${NFC}`) }),
    ];
    expect(twins.map((twin) => twin.outcome)).toEqual(['new', 'new']);
  });

  it('goes as NFC from a queue saved by the version before, which kept the name as the disk spells it', async () => {
    const { engine } = await bench.watch({}, { settleMs: 60_000 });
    await engine.queue.pauseAll(null);
    await writeFile(at(NFD), 'queued before the update');
    await engine.queue.enqueue({ accountId: bench.fixture!.accountId, path: at(NFD) });
    const dataDir = bench.fixture!.dataDir;
    await engine.close();
    const db = new Database(join(dataDir, 'media-sync.db'));
    namesAsOnDisk(db);
    expect(db.prepare('SELECT file_name FROM upload_items').pluck().all()).toEqual([NFD]);
    db.close();

    const reopened = await Engine.open({ dataDir });
    bench.fixture = { ...bench.fixture!, engine: reopened };
    expect(reopened.uploads.list().map((item) => item.fileName)).toEqual([NFC]);
    reopened.queue.start();
    reopened.queue.resumeAll();
    await bench.uploadsDone(reopened, 1);
    expect(await serverNames()).toEqual([NFC]);
  });
});
