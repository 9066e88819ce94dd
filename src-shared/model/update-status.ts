import * as z from 'zod';
import { MessageSchema } from '../i18n/message-schema.js';

/**
 * Where the desktop app stands with its own updates (electron-updater behind
 * src-main/electron/update-service.ts). The UI offers "Restart to update" in
 * `ready`; nothing restarts the app by itself.
 */
export const UpdateStatusSchema = z.discriminatedUnion('state', [
  /** this app does not update itself: the daemon, a development build, a package the OS updates */
  z.object({
    state: z.literal('unavailable'),
    /** in English; `text` says it as a catalog message, for the UI's language */
    reason: z.string(),
    text: MessageSchema.optional(),
  }),
  /** up to date as of `checkedAt` (null: not checked yet) */
  z.object({ state: z.literal('idle'), checkedAt: z.iso.datetime().nullable() }),
  z.object({ state: z.literal('checking') }),
  z.object({ state: z.literal('downloading'), version: z.string(), percent: z.number().min(0).max(100) }),
  /** downloaded and verified: installs on "Restart to update" or at the next quit */
  z.object({ state: z.literal('ready'), version: z.string() }),
  /** the last check or download failed; the next one comes by itself */
  z.object({ state: z.literal('failed'), message: z.string(), checkedAt: z.iso.datetime() }),
]);
export type UpdateStatus = z.infer<typeof UpdateStatusSchema>;

/**
 * Where a packaged app looks for updates until Settings says otherwise: the
 * generic provider's folder holding latest.yml, latest-mac.yml and
 * latest-linux.yml (`npm run dist` writes them beside the installers). The
 * `.example` name is reserved (RFC 2606) and never resolves: a build that
 * publishes updates sets its own address here, and in electron-builder.yml.
 */
export const DEFAULT_UPDATE_URL = 'https://updates.media-sync.example/desktop/';
