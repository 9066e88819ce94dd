import { existsSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The session bus's address: `DBUS_SESSION_BUS_ADDRESS`, else systemd's
 * per-user bus at `$XDG_RUNTIME_DIR/bus` where it exists (as GLib looks);
 * null when there is neither (a server, an SSH login, a container).
 */
export function sessionBusAddress(env: Record<string, string | undefined>): string | null {
  if (env['DBUS_SESSION_BUS_ADDRESS']) return env['DBUS_SESSION_BUS_ADDRESS'];
  const runtime = env['XDG_RUNTIME_DIR'];
  return runtime && existsSync(join(runtime, 'bus')) ? `unix:path=${join(runtime, 'bus')}` : null;
}
