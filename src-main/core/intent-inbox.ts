import { AppIntentSchema, type AppIntent } from '../../src-shared/ipc/ipc-contract.js';
import { Emitter } from '../common/disposable.js';

/** An intent before the inbox numbers it. */
export type NewIntent = { [K in AppIntent['kind']]: Omit<Extract<AppIntent, { kind: K }>, 'id'> }[AppIntent['kind']];

/** Intents nobody took are dropped oldest first past this many: a page that never opens costs nothing. */
export const MAX_PENDING_INTENTS = 20;

/**
 * What links and opened files asked for, until a page acts on it. A link
 * may arrive before any window has loaded (the OS starts the app with it),
 * so intents wait here; `take` hands each out once, to whichever page asks
 * first, and forgets it.
 */
export class IntentInbox {
  private pending: AppIntent[] = [];
  private lastId = 0;
  private readonly addEmitter = new Emitter<{ waiting: number }>();
  /** an intent is waiting; `waiting` counts all that are */
  readonly onDidAdd = this.addEmitter.event;

  add(intent: NewIntent): AppIntent {
    const numbered = AppIntentSchema.parse({ ...intent, id: ++this.lastId });
    this.pending = [...this.pending, numbered].slice(-MAX_PENDING_INTENTS);
    this.addEmitter.fire({ waiting: this.pending.length });
    return numbered;
  }

  take(): AppIntent[] {
    const taken = this.pending;
    this.pending = [];
    return taken;
  }

  dispose(): void {
    this.addEmitter.dispose();
  }
}
