import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LinuxPowerSource, readLinuxOnBattery } from '../../../src-main/headless/linux-power-source.js';
import { tempDir } from '../../helpers/engine-fixture.js';
import { FakeClock, flushMicrotasks } from '../../helpers/fake-clock.js';

/** A folder shaped like /sys/class/power_supply, with real files. */
describe('the Linux power source (/sys/class/power_supply)', () => {
  let sys: Awaited<ReturnType<typeof tempDir>>;

  beforeEach(async () => {
    sys = await tempDir('media-sync-power-supply-');
  });
  afterEach(async () => {
    await sys.remove();
  });

  async function supply(name: string, fields: Record<string, string>): Promise<void> {
    await mkdir(join(sys.path, name), { recursive: true });
    for (const [field, value] of Object.entries(fields)) await writeFile(join(sys.path, name, field), `${value}\n`);
  }

  it('a laptop unplugged: Mains offline and the battery Discharging', async () => {
    await supply('AC', { type: 'Mains', online: '0' });
    await supply('BAT0', { type: 'Battery', status: 'Discharging' });
    expect(await readLinuxOnBattery(sys.path)).toBe(true);
  });

  it('plugged in, whatever the battery says; a USB-C adapter counts as plugged in', async () => {
    await supply('AC', { type: 'Mains', online: '1' });
    await supply('BAT0', { type: 'Battery', status: 'Discharging' });
    expect(await readLinuxOnBattery(sys.path)).toBe(false);
    await supply('AC', { type: 'Mains', online: '0' });
    await supply('ucsi-source-psy-USBC000:001', { type: 'USB', online: '1' });
    expect(await readLinuxOnBattery(sys.path)).toBe(false);
  });

  it('never on battery: no supplies (a server), no folder, a full or charging battery, or only a mouse discharging', async () => {
    expect(await readLinuxOnBattery(sys.path)).toBe(false);
    expect(await readLinuxOnBattery(join(sys.path, 'missing'))).toBe(false);
    await supply('hidpp_battery_0', { type: 'Battery', scope: 'Device', status: 'Discharging' });
    expect(await readLinuxOnBattery(sys.path)).toBe(false);
    await supply('BAT0', { type: 'Battery', status: 'Charging' });
    expect(await readLinuxOnBattery(sys.path)).toBe(false);
  });

  it('polls every pollMs and tells each change once', async () => {
    await supply('AC', { type: 'Mains', online: '1' });
    await supply('BAT0', { type: 'Battery', status: 'Charging' });
    const clock = new FakeClock();
    const source = new LinuxPowerSource({ dir: sys.path, clock, pollMs: 60_000 });
    const seen: boolean[] = [];
    source.onDidChange((value) => seen.push(value));
    await source.start();
    expect(source.onBattery()).toBe(false);

    await supply('AC', { type: 'Mains', online: '0' });
    await supply('BAT0', { type: 'Battery', status: 'Discharging' });
    await clock.advance(30_000);
    expect(source.onBattery()).toBe(false);
    await clock.advance(30_000);
    // the read is real file I/O: let it finish
    for (let i = 0; i < 50 && !source.onBattery(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(source.onBattery()).toBe(true);
    expect(seen).toEqual([true]);

    source.dispose();
    await flushMicrotasks();
    expect(clock.pendingSleeps).toBe(0);
  });
});
