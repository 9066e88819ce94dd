import { execFile } from 'node:child_process';
import type { PowerActionsPort } from '../core/ports.js';
import { callMethod, connectSystemBus } from './system-bus.js';

const LOGIN1 = 'org.freedesktop.login1';

/**
 * Sleep and shut down through systemd-logind on the system bus:
 * `org.freedesktop.login1.Manager.Suspend(false)` and `PowerOff(false)`.
 * `interactive` false: polkit decides without asking for a password (an
 * active local session may; a remote one is refused), since nobody may be
 * at the computer when the queue ends. One connection per action.
 */
export function logindPowerActions(env: Record<string, string | undefined>): PowerActionsPort {
  const call = async (member: 'Suspend' | 'PowerOff') => {
    const bus = await connectSystemBus({ env });
    try {
      await callMethod(bus, {
        destination: LOGIN1,
        path: '/org/freedesktop/login1',
        interface: `${LOGIN1}.Manager`,
        member,
        signature: 'b',
        body: [false],
      });
    } finally {
      bus.disconnect();
    }
  };
  return { sleep: () => call('Suspend'), shutDown: () => call('PowerOff') };
}

/** Runs a program with arguments (no shell) and resolves once it exited 0. */
export type RunCommand = (file: string, args: string[]) => Promise<void>;

export const runCommand: RunCommand = (file, args) =>
  new Promise((resolve, reject) => {
    execFile(file, args, { timeout: 30_000 }, (error) => (error ? reject(error) : resolve()));
  });

/**
 * macOS and Windows through their own commands, as a person would type
 * them: `pmset sleepnow`, System Events' `shut down` (the same as the
 * Apple menu: apps may still ask to save); `rundll32 powrprof.dll,SetSuspendState`
 * (sleep, or hibernate where hibernation is on) and `shutdown /s /t 0`.
 */
export function commandPowerActions(platform: 'darwin' | 'win32', run: RunCommand = runCommand): PowerActionsPort {
  if (platform === 'darwin') {
    return {
      sleep: () => run('pmset', ['sleepnow']),
      shutDown: () => run('osascript', ['-e', 'tell application "System Events" to shut down']),
    };
  }
  return {
    sleep: () => run('rundll32.exe', ['powrprof.dll,SetSuspendState', '0,1,0']),
    shutDown: () => run('shutdown', ['/s', '/t', '0']),
  };
}

/** The computer's power actions on this platform: logind on Linux, the OS's commands on macOS and Windows. */
export function platformPowerActions(
  platform: NodeJS.Platform,
  env: Record<string, string | undefined>,
): PowerActionsPort {
  if (platform === 'darwin' || platform === 'win32') return commandPowerActions(platform);
  return logindPowerActions(env);
}
