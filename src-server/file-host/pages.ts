import type { FileRow } from '../db/files.js';

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function formatBytes(bytes: number): string {
  const units = ['bytes', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return `${unit === 0 ? value : value.toFixed(1)} ${units[unit]}`;
}

function page(title: string, bodyClass: string, main: string, scripts = ''): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Media File Service</title>
<link rel="stylesheet" href="/assets/player.css">
</head>
<body class="${bodyClass}">
<main>
${main}
</main>
${scripts}
</body>
</html>
`;
}

export type PageKind = 'watch' | 'embed';

/** The watch or embed page: a player for media, a download link for anything else. */
export function playerPage(file: FileRow, kind: PageKind, hlsUrl: string | null): string {
  const fileUrl = `/${file.public_id}/file`;
  const name = escapeHtml(file.name);
  let media: string;
  if (file.mime.startsWith('video/')) {
    media = `<video id="player" controls playsinline preload="metadata" data-src="${fileUrl}"${hlsUrl ? ` data-hls="${hlsUrl}"` : ''} aria-label="${name}"></video>`;
  } else if (file.mime.startsWith('audio/')) {
    media = `<audio id="player" controls preload="metadata" data-src="${fileUrl}" aria-label="${name}"></audio>`;
  } else if (file.mime.startsWith('image/')) {
    media = `<img src="${fileUrl}" alt="${name}">`;
  } else {
    media = `<p class="notice">This file cannot be played in the browser.</p>`;
  }
  const details =
    kind === 'watch'
      ? `<h1>${name}</h1>\n<p>${formatBytes(file.size_bytes)} · <a href="${fileUrl}">Download</a></p>`
      : '';
  const scripts = /^(video|audio)\//.test(file.mime)
    ? '<script src="/assets/hls.min.js"></script>\n<script src="/assets/player.js"></script>'
    : '';
  return page(file.name, kind, `${media}\n${details}`, scripts);
}

/**
 * What the password page says above its form: nothing yet; a wrong try, with
 * the tries left in the current window and the seconds until it ends; or, past
 * the limit, how long to wait.
 */
export type PasswordNotice = { wrong: true; triesLeft: number; seconds: number } | { wrong: false; seconds: number };

/** Asks for the password of a protected file, posted to `action`. */
export function passwordPage(file: FileRow, action: string, notice?: PasswordNotice): string {
  const message = notice ? `<p role="alert">${noticeText(notice)}</p>` : '';
  return page(
    file.name,
    'watch',
    `<h1>${escapeHtml(file.name)} is password protected</h1>
${message}
<form method="post" action="${action}">
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" maxlength="255" required>
<button type="submit">Open</button>
</form>`,
  );
}

function noticeText(notice: PasswordNotice): string {
  const wait = `Wait ${plural(notice.seconds, 'second')}, then try again.`;
  if (!notice.wrong) return `Too many tries for this file's password. ${wait}`;
  if (notice.triesLeft === 0) return `That password is not right. ${wait}`;
  return `That password is not right. You can try ${plural(notice.triesLeft, 'more time')} in the next ${plural(notice.seconds, 'second')}.`;
}

function plural(count: number, one: string): string {
  return `${count} ${count === 1 ? one : `${one}s`}`;
}

export function noticePage(file: FileRow, message: string): string {
  return page(file.name, 'watch', `<p class="notice">${escapeHtml(message)}</p>`);
}
