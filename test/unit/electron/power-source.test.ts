import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { ElectronPowerSource } from '../../../src-main/electron/power-source.js';

function fakePowerMonitor(onBattery: boolean) {
  return Object.assign(new EventEmitter(), { isOnBatteryPower: () => onBattery });
}

describe('ElectronPowerSource', () => {
  it('starts from isOnBatteryPower() and follows on-battery / on-ac, telling each change once', () => {
    const powerMonitor = fakePowerMonitor(true);
    const source = new ElectronPowerSource(powerMonitor as never);
    const seen: boolean[] = [];
    source.onDidChange((value) => seen.push(value));
    expect(source.onBattery()).toBe(true);
    powerMonitor.emit('on-ac');
    powerMonitor.emit('on-ac');
    powerMonitor.emit('on-battery');
    expect(seen).toEqual([false, true]);
    expect(source.onBattery()).toBe(true);
  });

  it('lets go of powerMonitor when disposed', () => {
    const powerMonitor = fakePowerMonitor(false);
    const source = new ElectronPowerSource(powerMonitor as never);
    expect(powerMonitor.listenerCount('on-battery')).toBe(1);
    source.dispose();
    expect(powerMonitor.listenerCount('on-battery')).toBe(0);
    expect(powerMonitor.listenerCount('on-ac')).toBe(0);
  });
});
