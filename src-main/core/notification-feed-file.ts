import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import * as z from 'zod';
import { NotificationSchema } from '../../src-shared/ipc/ipc-contract.js';

/** A notification as the feed keeps it: what it says as messages, and the body sent as it is. */
export const StoredNotificationSchema = NotificationSchema.omit({ title: true, body: true }).extend({
  verbatimBody: z.string(),
});
export type StoredNotification = z.infer<typeof StoredNotificationSchema>;

/**
 * The Activity panel's notifications in a JSON file of the data folder, so
 * the history survives a restart. Written whole through a rename (a crash
 * never leaves half a file); read once when the core starts, each entry
 * parsed on its own: one that does not parse (another version's) is left
 * out, the others are kept. Losing the file loses only the history, so a
 * write that fails (a full disk) is not an error of the app.
 */
export class NotificationFeedFile {
  constructor(private readonly path: string) {}

  read(): StoredNotification[] {
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(this.path, 'utf8'));
    } catch {
      return [];
    }
    if (!Array.isArray(raw)) return [];
    return raw.flatMap((entry) => {
      const parsed = StoredNotificationSchema.safeParse(entry);
      return parsed.success ? [parsed.data] : [];
    });
  }

  write(feed: readonly StoredNotification[]): void {
    try {
      writeFileSync(`${this.path}.tmp`, JSON.stringify(feed), { mode: 0o600 });
      renameSync(`${this.path}.tmp`, this.path);
    } catch {
      // the history stays in memory; the next write tries again
    }
  }
}
