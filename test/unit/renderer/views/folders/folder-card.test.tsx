import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { AppBridge, BridgeCapabilities } from '../../../../../src-renderer/bridge/app-bridge.js';
import { BridgeProvider } from '../../../../../src-renderer/bridge/bridge-context.js';
import { DESKTOP_CAPABILITIES } from '../../../../../src-renderer/bridge/electron-bridge.js';
import { BROWSER_CAPABILITIES } from '../../../../../src-renderer/bridge/ws-bridge.js';
import { createStores, StoresProvider } from '../../../../../src-renderer/store/stores.js';
import { FolderCard } from '../../../../../src-renderer/views/folders/folder-card.js';
import type { FolderState, FolderStatus } from '../../../../../src-shared/model/folder-status.js';
import { ScriptedBridge } from '../../../../helpers/scripted-bridge.js';

const STATUS: FolderStatus = {
  id: 1,
  accountId: 'acc-1',
  path: '/home/you/Videos',
  paused: false,
  state: { kind: 'watching', since: Date.now() },
  counts: { uploadedToday: 3, uploaded: 1_204, failed: 1, skipped: 2 },
  lastScanAt: null,
  recent: [
    {
      name: 'd.mp4',
      path: '/home/you/Videos/d.mp4',
      uploadId: 4,
      outcome: 'uploaded',
      fileId: 'f4',
      at: Date.now(),
      changedSinceUpload: true,
    },
    {
      name: 'c.mp4',
      path: '/home/you/Videos/c.mp4',
      uploadId: 3,
      outcome: 'uploaded',
      fileId: 'f3',
      at: Date.now(),
      changedSinceUpload: false,
    },
    {
      name: 'b.mp4',
      path: '/home/you/Videos/b.mp4',
      uploadId: 2,
      outcome: 'failed',
      fileId: null,
      at: Date.now(),
      changedSinceUpload: false,
    },
  ],
};

/** A signed-in account a folder can move to. */
const OTHER = {
  id: 'acc-2',
  baseUrl: 'https://media.example.com/api/v1',
  username: 'ann',
  plan: 'free',
  blocked: null,
  tokenStorage: 'a file only your user can read (0600)',
} as const;

/** The card as markup; nothing is sent while rendering (the scripted bridge never connects). */
function card(status: Partial<FolderStatus>, capabilities: BridgeCapabilities = BROWSER_CAPABILITIES): string {
  const bridge = new ScriptedBridge();
  const shown: AppBridge = Object.assign(Object.create(bridge) as AppBridge, { capabilities });
  return renderToStaticMarkup(
    <BridgeProvider value={shown}>
      <StoresProvider value={createStores(bridge)}>
        <FolderCard
          status={{ ...STATUS, ...status }}
          folder={undefined}
          now={Date.now()}
          account="demo at 127.0.0.1"
          accounts={[OTHER]}
          onSignIn={() => undefined}
          onNote={() => undefined}
        />
      </StoresProvider>
    </BridgeProvider>,
  );
}

const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');
const buttons = (html: string) => [...html.matchAll(/<button[^>]*>([^<]*)<\/button>/g)].map((match) => match[1]);

describe('a watched folder’s card', () => {
  it('shows the state, the counts, the last files (one on the service linked to Files) and the actions', () => {
    const html = card({});
    expect(text(html)).toMatch(/Up to date since \d\d:\d\d/);
    expect(text(html)).toContain('Uploaded today 3 Uploaded in all 1,204 Failed 1 Skipped 2');
    expect(html).toContain('<a href="#/files?search=c.mp4">c.mp4</a>');
    // a failed file is not on the service: its name, no link
    expect(html).not.toContain('search=b.mp4');
    expect(text(html)).toContain('b.mp4 failed');
    // edited since its upload: its new version is in the queue
    expect(text(html)).toContain('d.mp4 uploaded, changed since its upload');
    expect(text(html)).toContain('c.mp4 uploaded');
    expect(buttons(html)).toEqual([
      'Why?',
      'Why?',
      'Why?',
      'Pause',
      'Rescan now',
      'Copy path',
      'Edit options',
      'Remove',
    ]);
    expect(html).toContain('aria-label="Pause /home/you/Videos"');
    // each file's row opens "why this file?" for it
    expect(html).toContain('aria-label="Why? d.mp4"');
  });

  it('offers Resume once paused, the file manager in the desktop app, and a sign-in for a refused token', () => {
    const paused = card(
      { paused: true, state: { kind: 'paused', by: 'folder', until: null }, recent: [] },
      DESKTOP_CAPABILITIES,
    );
    expect(buttons(paused)).toEqual(['Resume', 'Rescan now', 'Show in file manager', 'Edit options', 'Remove']);
    expect(text(paused)).toContain('Paused by you');

    const refused: FolderState = { kind: 'problem', problem: 'signedOut', since: Date.now() };
    const html = card({ state: refused });
    expect(text(html)).toContain('The account’s token was refused');
    expect(buttons(html)[0]).toBe('Sign in with a new token');
    expect(html).toContain('folder-card--problem');
  });

  it('says a folder on a network share is checked by polling, and says nothing of it for a folder with change events', () => {
    const polled = card({ polling: { everySeconds: 60, why: 'network', fileSystem: 'NFS' } });
    expect(text(polled)).toContain('Network folder (NFS): checked every minute');
    expect(text(card({}))).not.toContain('checked every');
  });

  it('says its account is signed out, naming it, with a sign-in and a move to a signed-in account', () => {
    const account = { baseUrl: 'http://127.0.0.1:8790/api/v1', username: 'demo' };
    const html = card({ state: { kind: 'problem', problem: 'accountGone', since: Date.now(), account } });
    expect(text(html)).toContain(
      'Its account is signed out The files of this folder wait in the queue. Sign in to demo on 127.0.0.1:8790 again and they go on, or move the folder to a signed-in account.',
    );
    expect(buttons(html).slice(0, 2)).toEqual(['Sign in again', 'Move folder']);
    expect(html).toContain('<option value="acc-2" selected="">ann on media.example.com</option>');
    expect(html).toContain('aria-label="Move /home/you/Videos to the chosen account"');
    // an account the app no longer knows at all: only the move
    const unknown = card({ state: { kind: 'problem', problem: 'accountGone', since: Date.now(), account: null } });
    expect(text(unknown)).toContain('Move the folder to a signed-in account and they go on there.');
  });
});
