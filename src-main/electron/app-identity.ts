/**
 * Who the app is to the OS. These must equal electron-builder.yml's `appId`,
 * `productName` and `linux.executableName` (a test holds them together): the
 * app user model id groups Windows notifications under the installed app, and
 * the Linux autostart entry is named like the installed `.desktop` file.
 */
export const APP_ID = 'app.mediasync.desktop';
export const PRODUCT_NAME = 'Media Sync';
export const EXECUTABLE_NAME = 'media-sync';
