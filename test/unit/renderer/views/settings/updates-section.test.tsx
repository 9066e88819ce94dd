import type { ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { AppBridge } from '../../../../../src-renderer/bridge/app-bridge.js';
import { BridgeProvider } from '../../../../../src-renderer/bridge/bridge-context.js';
import { DESKTOP_CAPABILITIES } from '../../../../../src-renderer/bridge/electron-bridge.js';
import { createStores, StoresProvider } from '../../../../../src-renderer/store/stores.js';
import { UpdateBanner } from '../../../../../src-renderer/components/update-banner.js';
import { UpdatesCard, type UpdatesCardProps } from '../../../../../src-renderer/views/settings/updates-section.js';
import type { UpdateStatus } from '../../../../../src-shared/model/update-status.js';

/** Rendering calls nothing: a bridge that would fail the test if it were used. */
const BRIDGE: AppBridge = {
  capabilities: DESKTOP_CAPABILITIES,
  connection: () => 'closed',
  onConnectionChange: () => () => undefined,
  pathForFile: () => null,
  invoke: () => Promise.reject(new Error('no command while rendering')),
  on: () => () => undefined,
};

function render(node: ReactNode): string {
  return renderToStaticMarkup(
    <BridgeProvider value={BRIDGE}>
      <StoresProvider value={createStores(BRIDGE)}>{node}</StoresProvider>
    </BridgeProvider>,
  );
}

function card(props: Partial<UpdatesCardProps>): string {
  return render(
    <UpdatesCard
      version="0.1.0"
      status={{ state: 'idle', checkedAt: null }}
      settings={{ updateUrl: 'https://updates.media-sync.example/desktop/' }}
      error={null}
      {...props}
    />,
  );
}

/** The button with this text, as markup: `<button …>text</button>`. */
function button(html: string, text: string): string | undefined {
  return [...html.matchAll(/<button[^>]*>([^<]*)<\/button>/g)].find((match) => match[1] === text)?.[0];
}

const REASON = 'Media Sync run with `media-sync serve` is updated with its package, not by itself.';

describe('Settings → Updates', () => {
  it('in a browser: the version and the reason, Check disabled, no update address', () => {
    const html = card({
      status: { state: 'unavailable', reason: REASON },
      settings: undefined,
    });
    expect(html).toContain('<h2 id="updates-title">Updates</h2>');
    expect(html).toContain('You are using Media Sync 0.1.0.');
    expect(html).toContain(
      '<div id="update-status" class="settings__update-status" role="status"><p>Media Sync run with <code>media-sync serve</code> is updated with its package, not by itself.</p></div>',
    );
    expect(button(html, 'Check for updates')).toContain('disabled=""');
    expect(button(html, 'Check for updates')).toContain('aria-describedby="update-status"');
    expect(html).not.toContain('Update address');
    expect(html).not.toContain('Restart to update');
  });

  it('on the desktop: the update address with its hint, and Check enabled while idle', () => {
    const html = card({ settings: { updateUrl: 'https://updates.example.com/media-sync/' } });
    expect(html).toContain('Media Sync has not checked for updates yet.');
    expect(button(html, 'Check for updates')).not.toContain('disabled');
    expect(html).toContain('<span>Update address</span>');
    expect(html).toContain('value="https://updates.example.com/media-sync/"');
    expect(html).toContain('aria-describedby="settings-update-url-hint"');
    expect(html).toContain('Leave it empty for the default address.');
    expect(button(html, 'Save update address')).toBeDefined();
  });

  it('shows the default address as the placeholder of an empty field', () => {
    const html = card({});
    const input = /<input type="url"[^>]*>/.exec(html)?.[0];
    expect(input).toContain('placeholder="https://updates.media-sync.example/desktop/"');
    expect(input).toContain('value=""');
  });

  it('says each state in the live region and offers only what can be done', () => {
    const states: Array<[UpdateStatus, string, { check: boolean; restart: boolean }]> = [
      [{ state: 'checking' }, 'Checking for updates…', { check: false, restart: false }],
      [
        { state: 'downloading', version: '1.4.0', percent: 62.5 },
        'Downloading Media Sync 1.4.0: 62% done.',
        { check: false, restart: false },
      ],
      [{ state: 'ready', version: '1.4.0' }, 'Media Sync 1.4.0 is ready to install.', { check: false, restart: true }],
      [
        {
          state: 'failed',
          message: 'Media Sync could not reach its update server.',
          checkedAt: '2025-03-12T14:05:00Z',
        },
        'Media Sync could not reach its update server.',
        { check: true, restart: false },
      ],
    ];
    for (const [status, sentence, offers] of states) {
      const html = card({ status });
      const region = /<div id="update-status"[^>]*role="status">(.*?)<\/div>/.exec(html)?.[1];
      expect(region).toContain(sentence);
      expect(button(html, 'Check for updates')?.includes('disabled')).toBe(!offers.check);
      expect(button(html, 'Restart to update') !== undefined).toBe(offers.restart);
    }
  });

  it('says when the status is still loading, and when it could not be read', () => {
    expect(card({ status: undefined })).toContain('Loading…');
    const html = card({
      status: undefined,
      error: { code: 'DISCONNECTED', message: 'Not connected to Media Sync. Reconnecting…', requestId: null },
    });
    expect(html).toContain('The update status could not be read.');
    expect(html).toContain('Not connected to Media Sync. Reconnecting…');
  });
});

describe('the update banner', () => {
  it('shows only while an update is ready, with Restart to update and Later', () => {
    const html = render(<UpdateBanner status={{ state: 'ready', version: '1.4.0' }} />);
    expect(html).toMatch(/^<div class="banner banner--info update-banner" role="status">/);
    expect(html).toContain('<span>Media Sync 1.4.0 is ready to install.</span>');
    expect(button(html, 'Restart to update')).toBeDefined();
    expect(button(html, 'Later')).toBeDefined();
    expect(html).not.toContain('<dialog');
  });

  it('is not there in any other state', () => {
    const others: Array<UpdateStatus | undefined> = [
      undefined,
      { state: 'unavailable', reason: REASON },
      { state: 'idle', checkedAt: null },
      { state: 'checking' },
      { state: 'downloading', version: '1.4.0', percent: 99 },
      { state: 'failed', message: 'No.', checkedAt: '2025-03-12T14:05:00Z' },
    ];
    for (const status of others) expect(render(<UpdateBanner status={status} />)).toBe('');
  });
});
