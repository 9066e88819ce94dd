import { build, Platform, type AfterPackContext } from 'electron-builder';
import { existsSync, readFileSync } from 'node:fs';
import { cp, mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { buildDesktop } from '../../scripts/build-desktop.js';
import { APP_ICON_SIZE, TRAY_ICON_SIZE } from '../../scripts/make-icons.js';
import { NATIVE_BINDING_PATH, runtimePaths, windowIconPath } from '../../src-main/electron/runtime-paths.js';
import { TRAY_KINDS, trayIconPath } from '../../src-main/electron/tray-menu.js';
import { APP_ID, EXECUTABLE_NAME, PRODUCT_NAME } from '../../src-main/electron/app-identity.js';
import { DEEP_LINK_SCHEME } from '../../src-shared/model/deep-link.js';
import { DEFAULT_UPDATE_URL } from '../../src-shared/model/update-status.js';
import { tempDir } from '../helpers/engine-fixture.js';
import { packagesImportedBy } from '../helpers/bundle-imports.js';

const ROOT = resolve(import.meta.dirname, '../..');

/**
 * electron-builder's own loader and schema check, offline (packaging itself
 * needs Electron's zip from GitHub). These are internal paths of
 * app-builder-lib 26 (docs/ARCHITECTURE.md, Build notes): if an upgrade moves them, this test
 * says so rather than passing.
 */
interface Builder {
  getConfig(projectDir: string, configPath: string | null, configFromOptions: null): Promise<Record<string, unknown>>;
  validateConfiguration(config: Record<string, unknown>, logger: unknown): Promise<void>;
  DebugLogger: new (enabled: boolean) => unknown;
}
const requireFromRoot = createRequire(join(ROOT, 'package.json'));
function builder(): Builder {
  const config = requireFromRoot('app-builder-lib/out/util/config/config.js') as Omit<Builder, 'DebugLogger'>;
  const { DebugLogger } = requireFromRoot('builder-util') as Pick<Builder, 'DebugLogger'>;
  return { ...config, DebugLogger };
}
/** Writes the .desktop entry of the AppImage and deb targets (internal too: docs/ARCHITECTURE.md, Build notes). */
const { LinuxTargetHelper } = requireFromRoot('app-builder-lib/out/targets/LinuxTargetHelper.js') as {
  LinuxTargetHelper: new (packager: AfterPackContext['packager']) => {
    computeDesktopEntry(options: AfterPackContext['packager']['platformSpecificBuildOptions']): Promise<string>;
  };
};
/** @electron/asar comes with electron-builder: it reads what went into app.asar */
const asar = requireFromRoot('@electron/asar') as {
  listPackage(archive: string, options: { isPack: boolean }): string[];
};

const PlatformSchema = z.object({ target: z.array(z.string()), icon: z.string() });
const ConfigSchema = z.object({
  appId: z.string(),
  productName: z.string(),
  // getConfig wraps the list in one { filter } entry
  files: z.array(z.union([z.string(), z.object({ filter: z.array(z.string()) })])),
  asarUnpack: z.array(z.string()),
  npmRebuild: z.boolean(),
  publish: z.object({ provider: z.literal('generic'), url: z.string() }),
  linux: PlatformSchema.extend({ executableName: z.string() }),
  protocols: z.array(z.object({ name: z.string(), schemes: z.array(z.string()), role: z.string().optional() })),
  win: PlatformSchema,
  mac: PlatformSchema,
});

async function loadConfig() {
  const { getConfig } = builder();
  const raw = await getConfig(ROOT, null, null);
  const config = ConfigSchema.parse(raw);
  const files = config.files.flatMap((entry) => (typeof entry === 'string' ? [entry] : entry.filter));
  return { raw, config, files };
}

/** Width, height and colour type from a PNG's signature and IHDR chunk. */
function pngHeader(bytes: Buffer): { width: number; height: number; colorType: number } {
  expect(bytes.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  expect(bytes.toString('latin1', 12, 16)).toBe('IHDR');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20), colorType: bytes.readUInt8(25) };
}
const RGBA = 6;

describe('electron-builder.yml (checked offline: packaging needs downloads)', () => {
  it("passes electron-builder's own schema check, which does reject a misspelt option", async () => {
    const { validateConfiguration, DebugLogger } = builder();
    const { raw } = await loadConfig();
    await expect(validateConfiguration(raw, new DebugLogger(false))).resolves.toBeUndefined();
    await expect(
      validateConfiguration({ ...raw, linux: { target: ['AppImage'], icn: 'x.png' } }, new DebugLogger(false)),
    ).rejects.toThrow(/Invalid configuration/);
  });

  it('builds an AppImage and a deb on Linux, an NSIS installer on Windows and a dmg on macOS', async () => {
    const { config } = await loadConfig();
    expect(config.productName).toBe('Media Sync');
    expect(config.appId).toMatch(/^[a-z]+(\.[a-z0-9-]+)+$/);
    expect({
      linux: config.linux.target,
      win: config.win.target,
      mac: config.mac.target,
    }).toEqual({ linux: ['AppImage', 'deb'], win: ['nsis'], mac: ['dmg'] });
  });

  it('declares the media-sync:// scheme the link parser reads, so the OS hands those links to the app', async () => {
    const { config } = await loadConfig();
    expect(config.protocols).toEqual([{ name: 'Media Sync link', schemes: [DEEP_LINK_SCHEME], role: 'Viewer' }]);
  });

  it('names the app as the running app names itself to the OS (notifications, autostart entry, updates)', async () => {
    const { config } = await loadConfig();
    expect({ appId: config.appId, productName: config.productName, executable: config.linux.executableName }).toEqual({
      appId: APP_ID,
      productName: PRODUCT_NAME,
      executable: EXECUTABLE_NAME,
    });
    // the app looks where the installers are published until Settings says otherwise
    expect(config.publish.url).toBe(DEFAULT_UPDATE_URL);
  });

  it('names app icons that exist: square RGBA PNGs large enough for .icns and .ico', async () => {
    const { config } = await loadConfig();
    for (const platform of ['linux', 'win', 'mac'] as const) {
      const header = pngHeader(await readFile(join(ROOT, config[platform].icon)));
      expect(header, platform).toEqual({ width: APP_ICON_SIZE, height: APP_ICON_SIZE, colorType: RGBA });
    }
  });

  it('packs the bundles, the entry point, the Electron build of better-sqlite3 and the runtime images', async () => {
    const { config, files } = await loadConfig();
    const { main } = z.object({ main: z.string() }).parse(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')));
    expect(main).toBe('dist/electron/main.js');
    expect(files).toEqual(
      expect.arrayContaining([
        'package.json',
        'dist/electron/**',
        'dist/renderer/**',
        NATIVE_BINDING_PATH,
        'assets/icon.png',
        'assets/tray/*.png',
      ]),
    );
    // outside the archive, where src-main/electron/runtime-paths.ts looks for them
    expect(config.asarUnpack).toEqual(['dist/electron-native/*.node', 'assets/**']);
    // electron-builder must not rebuild node_modules' better-sqlite3 for Electron over the Node build
    expect(config.npmRebuild).toBe(false);
  });

  it('has a tray image for each of the four states, at 1x (16 px) and 2x (32 px), with transparency', async () => {
    const seen = new Set<string>();
    for (const kind of TRAY_KINDS) {
      const path = trayIconPath(kind, join(ROOT, 'assets'));
      for (const [file, size] of [
        [path, TRAY_ICON_SIZE],
        [path.replace(/\.png$/, '@2x.png'), TRAY_ICON_SIZE * 2],
      ] as const) {
        const bytes = await readFile(file);
        expect(pngHeader(bytes), file).toEqual({ width: size, height: size, colorType: RGBA });
        seen.add(bytes.toString('base64'));
      }
    }
    // four states that look alike would tell the user nothing
    expect(seen.size).toBe(TRAY_KINDS.length * 2);
  });
});

describe('the packaged app (a Linux "dir" build with a stand-in for the Electron binary)', () => {
  /**
   * electron-builder's real packing of this config, offline: its `electronDist`
   * takes a folder in place of the Electron zip it would download. The project
   * is a temporary copy whose node_modules is a link to this one's, so the
   * real dist/ stays as it is.
   */
  async function packageApp(project: string): Promise<{ resourcesPath: string; desktopEntry: string }> {
    for (const file of ['package.json', 'electron-builder.yml', 'assets']) {
      await cp(join(ROOT, file), join(project, file), { recursive: true });
    }
    await symlink(join(ROOT, 'node_modules'), join(project, 'node_modules'), 'junction');
    await buildDesktop(join(project, 'dist/electron'));
    await mkdir(join(project, 'dist/renderer'), { recursive: true });
    await writeFile(join(project, 'dist/renderer/index.html'), '<!doctype html><title>Media Sync</title>');
    // stands for `npm run prepare:electron-native`'s output, which needs the internet
    await mkdir(join(project, 'dist/electron-native'), { recursive: true });
    await writeFile(join(project, NATIVE_BINDING_PATH), 'not really a native module');
    await mkdir(join(project, 'electron-dist'));
    await writeFile(join(project, 'electron-dist/electron'), '#!/bin/sh\n', { mode: 0o755 });
    let desktopEntry = '';
    await build({
      projectDir: project,
      targets: Platform.LINUX.createTarget('dir'),
      publish: 'never',
      config: {
        electronDist: join(project, 'electron-dist'),
        directories: { output: join(project, 'out') },
        // as in electron-builder.yml, and repeated here: node_modules is the real one, linked
        npmRebuild: false,
        // the "dir" target writes no .desktop entry: ask for the one AppImage and deb would write
        afterPack: async ({ packager }) => {
          desktopEntry = await new LinuxTargetHelper(packager).computeDesktopEntry(
            packager.platformSpecificBuildOptions,
          );
        },
      },
    });
    return { resourcesPath: join(project, 'out/linux-unpacked/resources'), desktopEntry };
  }

  let project: Awaited<ReturnType<typeof tempDir>>;
  let packaged: Awaited<ReturnType<typeof packageApp>>;
  beforeAll(async () => {
    project = await tempDir('media-sync-package-');
    packaged = await packageApp(project.path);
  });
  afterAll(async () => {
    await project?.remove();
  });

  it('holds every module main.js imports, and the real files where runtime-paths looks for them', async () => {
    const { resourcesPath } = packaged;
    const archive = join(resourcesPath, 'app.asar');
    const packed = new Set(asar.listPackage(archive, { isPack: false }).map((file) => file.replaceAll('\\', '/')));

    for (const file of [
      '/package.json',
      '/dist/electron/main.js',
      '/dist/electron/preload.cjs',
      '/dist/electron/assets/player.js',
      '/dist/renderer/index.html',
      '/node_modules/hls.js/dist/hls.min.js',
    ]) {
      expect(packed.has(file), file).toBe(true);
    }
    const main = await readFile(join(project.path, 'dist/electron/main.js'), 'utf8');
    const imported = packagesImportedBy(main);
    expect(imported.size).toBeGreaterThan(5);
    for (const name of imported) expect(packed.has(`/node_modules/${name}/package.json`), name).toBe(true);
    // loaded with createRequire only once a packaged app checks for updates
    expect(packed.has('/node_modules/electron-updater/package.json')).toBe(true);
    // what main.js does not need stays out
    for (const name of ['react', 'tsx', 'esbuild', 'better-sqlite3/build', 'better-sqlite3/deps']) {
      expect(packed.has(`/node_modules/${name}`), name).toBe(false);
    }

    const paths = runtimePaths({ isPackaged: true, mainDir: join(archive, 'dist/electron'), resourcesPath });
    expect(readFileSync(paths.nativeBinding, 'utf8')).toBe('not really a native module');
    for (const kind of TRAY_KINDS) expect(existsSync(trayIconPath(kind, paths.assetsDir)), kind).toBe(true);
    expect(existsSync(windowIconPath('linux', paths.assetsDir)!)).toBe(true);
  });

  it('tells electron-updater where updates are published and names its cache folder (resources/app-update.yml)', async () => {
    const { load } = requireFromRoot('js-yaml') as { load(text: string): unknown };
    const config = load(await readFile(join(packaged.resourcesPath, 'app-update.yml'), 'utf8'));
    expect(config).toEqual({ provider: 'generic', url: DEFAULT_UPDATE_URL, updaterCacheDirName: 'media-sync-updater' });
  });

  it('has a Linux desktop entry that hands media-sync:// links to the app', () => {
    const entry = Object.fromEntries(
      packaged.desktopEntry
        .split('\n')
        .filter((line) => line.includes('='))
        .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
    );
    expect(entry['MimeType']).toBe(`x-scheme-handler/${DEEP_LINK_SCHEME};`);
    // %U: the link (or opened files) arrive in argv, where the shell reads them
    expect(entry['Exec']).toMatch(/ %U$/);
  });
});
