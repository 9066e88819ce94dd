import type { PowerMonitor } from 'electron';
import type { PowerSourcePort } from '../core/ports.js';
import { Emitter, type Disposable } from '../common/disposable.js';

/**
 * Battery or mains from Electron's `powerMonitor`: `isOnBatteryPower()` at
 * start, then its `on-battery` and `on-ac` events (macOS and Windows; on
 * Linux Electron reads UPower). A thin adapter: the core decides what to do.
 */
export class ElectronPowerSource implements PowerSourcePort, Disposable {
  private battery: boolean;
  private readonly emitter = new Emitter<boolean>();
  readonly onDidChange = this.emitter.event;
  private readonly listeners: Array<['on-battery' | 'on-ac', () => void]> = [
    ['on-battery', () => this.set(true)],
    ['on-ac', () => this.set(false)],
  ];

  constructor(private readonly powerMonitor: Pick<PowerMonitor, 'on' | 'removeListener' | 'isOnBatteryPower'>) {
    this.battery = powerMonitor.isOnBatteryPower();
    for (const [event, listener] of this.listeners) powerMonitor.on(event as 'on-ac', listener);
  }

  onBattery(): boolean {
    return this.battery;
  }

  dispose(): void {
    for (const [event, listener] of this.listeners) this.powerMonitor.removeListener(event as 'on-ac', listener);
    this.emitter.dispose();
  }

  private set(battery: boolean): void {
    if (battery === this.battery) return;
    this.battery = battery;
    this.emitter.fire(battery);
  }
}
