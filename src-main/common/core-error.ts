/**
 * An error the app raises itself, with a code the UI can act on: AppCore
 * sends its code and message across the contract as they are. It lives here,
 * below the core, so services (a folder path check in sync/) can give a
 * person the same clear answer without reaching up into AppCore.
 */
export class CoreError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'CoreError';
  }
}
