import * as z from 'zod';
import { englishText, message } from '../../src-shared/i18n/message.js';
import { IPC_COMMANDS, type IpcCommandName, type IpcError, type IpcResult } from '../../src-shared/ipc/ipc-contract.js';
import { fieldReasons } from '../../src-shared/model/field-reasons.js';
import { ApiError } from '../api-client/api-error.js';
import { CoreError } from '../common/core-error.js';
import type { Log } from '../common/file-log.js';
import { accountCommands } from './commands/account-commands.js';
import { appCommands } from './commands/app-commands.js';
import type { CoreServices, Handlers } from './commands/handlers.js';
import { conversionCommands } from './commands/conversion-commands.js';
import { fileCommands } from './commands/file-commands.js';
import { folderCommands } from './commands/folder-commands.js';
import { importCommands } from './commands/import-commands.js';
import { notificationCommands } from './commands/notification-commands.js';
import { settingsCommands } from './commands/settings-commands.js';
import { supportCommands } from './commands/support-commands.js';
import { uploadCommands } from './commands/upload-commands.js';
import { outgoing } from './outgoing-check.js';

/** Every command of the contract, one group per service, each given only the services it uses. */
export function commandHandlers(services: CoreServices): Handlers {
  return {
    ...accountCommands(services),
    ...folderCommands(services),
    ...uploadCommands(services),
    ...fileCommands(services),
    ...importCommands(services),
    ...settingsCommands(services),
    ...notificationCommands(services),
    ...conversionCommands(services),
    ...appCommands(services),
    ...supportCommands(services),
  };
}

/**
 * The trust boundary (docs/ARCHITECTURE.md, One command from the UI): runs
 * one command from a transport, `raw` being whatever arrived. The request is
 * parsed with its schema before anything happens; the answer is checked
 * against the contract in tests (outgoing-check.ts); a failure becomes the
 * IpcError a client shows. Never throws; a malformed request changes nothing
 * and gets a VALIDATION_ERROR.
 */
export async function runCommand(
  handlers: Handlers,
  name: string,
  raw: unknown,
  { log, checkOutgoing }: { log?: Log; checkOutgoing: boolean },
): Promise<IpcResult<unknown>> {
  if (!Object.hasOwn(IPC_COMMANDS, name)) {
    return failure({ code: 'UNKNOWN_COMMAND', message: `There is no command "${name}".`, requestId: null });
  }
  const command = IPC_COMMANDS[name as IpcCommandName];
  // a request is JSON's object of fields: Electron's structured clone also carries Maps, Dates,
  // typed arrays and Errors, which a z.object would take as an empty object and run the command
  if (!isPlainObject(raw ?? {})) {
    const message = `Invalid request for ${name}: expected an object of fields.`;
    return failure({ code: 'VALIDATION_ERROR', message, requestId: null });
  }
  const request = command.request.safeParse(raw ?? {});
  if (!request.success) {
    const message = `Invalid request for ${name}: ${z.prettifyError(request.error).replace(/\n/g, ' ')}`;
    return failure({ code: 'VALIDATION_ERROR', message, requestId: null });
  }
  try {
    const handler = handlers[name as IpcCommandName] as (request: unknown) => Promise<unknown>;
    return {
      ok: true,
      value: outgoing(command.response, await handler(request.data), `the answer to ${name}`, checkOutgoing),
    };
  } catch (error) {
    // the service's refusals and the core's own are answers the UI shows; the rest is written down with its stack
    if (!(error instanceof ApiError || error instanceof CoreError)) {
      log?.error(`The command ${name} failed.`, error);
    }
    return failure(ipcErrorOfThrown(error));
  }
}

function failure(error: IpcError): IpcResult<never> {
  return { ok: false, error };
}

/** What crosses the boundary for a failure: message and request id, never a stack or a token. */
export function ipcErrorOfThrown(error: unknown): IpcError {
  if (error instanceof ApiError) {
    const { code, message, requestId, text } = error;
    const fields = code === 'VALIDATION_ERROR' ? fieldReasons(error.details) : undefined;
    return { code, message, requestId, ...(text ? { text } : {}), ...(fields ? { fields } : {}) };
  }
  if (error instanceof CoreError) {
    return { code: error.code, message: error.message, requestId: null, ...(error.text ? { text: error.text } : {}) };
  }
  if (error instanceof z.ZodError) {
    const text = message('core.errors.internal');
    return { code: 'INTERNAL_ERROR', message: englishText(text), requestId: null, text };
  }
  return { code: 'INTERNAL_ERROR', message: error instanceof Error ? error.message : String(error), requestId: null };
}

function isPlainObject(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
