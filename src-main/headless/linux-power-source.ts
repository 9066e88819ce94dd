import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { PowerSourcePort } from '../core/ports.js';
import { systemClock, type Clock } from '../common/clock.js';
import { Emitter, type Disposable } from '../common/disposable.js';
import type { ShutdownPort } from '../common/shutdown.js';

/** The kernel's power supplies on Linux, one folder each. */
export const LINUX_POWER_SUPPLY_DIR = '/sys/class/power_supply';

/** Supplies that are not the battery: an adapter, or USB power (types as the kernel names them). */
const EXTERNAL_TYPES = new Set(['Mains', 'USB', 'USB_C', 'USB_PD', 'USB_PD_DRP', 'USB_DCP', 'USB_CDP', 'USB_ACA']);

/**
 * On battery, by the Linux convention (what systemd's `on_ac_power` and
 * UPower read): no external supply (`type` Mains or USB…) reports `online`
 * 1, and some supply of `type` Battery reports `status` Discharging. A
 * computer with no battery (a server, a NAS) or whose folder cannot be read
 * is never on battery. `scope` Device batteries (a mouse's) do not count.
 */
export async function readLinuxOnBattery(dir = LINUX_POWER_SUPPLY_DIR): Promise<boolean> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return false;
  }
  const read = (name: string, field: string) =>
    readFile(join(dir, name, field), 'utf8').then(
      (text) => text.trim(),
      () => null,
    );
  let discharging = false;
  // a laptop has a handful of supplies: read at most this many, whatever the folder holds
  for (const name of names.slice(0, 32)) {
    const type = await read(name, 'type');
    if (type === null) continue;
    if (EXTERNAL_TYPES.has(type) && (await read(name, 'online')) === '1') return false;
    if (type === 'Battery' && (await read(name, 'scope')) !== 'Device') {
      if ((await read(name, 'status')) === 'Discharging') discharging = true;
    }
  }
  return discharging;
}

export interface LinuxPowerSourceOptions {
  dir?: string;
  clock?: Clock;
  /** between two reads (60 s): sysfs has no event to wait on, and a minute late is soon enough to pause */
  pollMs?: number;
  /** the app's stop: polling ends once nothing new is taken in (`intake`) */
  shutdown?: ShutdownPort;
}

/**
 * The headless daemon's power source on Linux: /sys/class/power_supply read
 * at start and then every `pollMs`. Use `start()` before reading `onBattery()`.
 */
export class LinuxPowerSource implements PowerSourcePort, Disposable {
  private battery = false;
  private readonly emitter = new Emitter<boolean>();
  readonly onDidChange = this.emitter.event;
  private readonly stop = new AbortController();
  private readonly clock: Clock;

  constructor(private readonly options: LinuxPowerSourceOptions = {}) {
    this.clock = options.clock ?? systemClock;
    options.shutdown?.onWillShutdown('intake', () => this.dispose());
  }

  /** Reads once (the answer is there when this resolves), then keeps polling until disposed. */
  async start(): Promise<void> {
    await this.poll();
    void this.loop();
  }

  onBattery(): boolean {
    return this.battery;
  }

  dispose(): void {
    this.stop.abort();
    this.emitter.dispose();
  }

  private async loop(): Promise<void> {
    const pollMs = this.options.pollMs ?? 60_000;
    while (!this.stop.signal.aborted) {
      try {
        await this.clock.sleep(pollMs, this.stop.signal);
      } catch {
        return;
      }
      await this.poll();
    }
  }

  private async poll(): Promise<void> {
    const battery = await readLinuxOnBattery(this.options.dir);
    if (this.stop.signal.aborted || battery === this.battery) return;
    this.battery = battery;
    this.emitter.fire(battery);
  }
}
