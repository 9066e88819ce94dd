import { englishText, type Message } from '../../src-shared/i18n/message.js';
import type { AppErrorCode } from '../../src-shared/ipc/app-error-codes.js';

/**
 * An error the app raises itself, with a code the UI can act on: AppCore
 * sends its code, message and text across the contract as they are. It lives here,
 * below the core, so services (a folder path check in sync/) can give a
 * person the same clear answer without reaching up into AppCore.
 */
export class CoreError extends Error {
  constructor(
    readonly code: AppErrorCode,
    message: string,
    /** the message as a catalog message: the UI says it in its own language */
    readonly text?: Message,
  ) {
    super(message);
    this.name = 'CoreError';
  }

  /** An error whose message is a catalog sentence: `message` in English (logs, the CLI), `text` for the UI. */
  static say(code: AppErrorCode, text: Message): CoreError {
    return new CoreError(code, englishText(text), text);
  }
}
