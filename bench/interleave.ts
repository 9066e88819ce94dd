/**
 * Rounds of interleaved contenders, for comparisons a shared 2-core machine
 * cannot spoil: one run per contender per round, each round in a rotated
 * order (A B C, B C A, C A B, …), all against the same server process. Noise
 * that lasts a while (another job, a warm or cold page cache) then hits every
 * contender alike, and the ratio taken within each round cancels it out.
 */

export interface Sample {
  /** wall seconds of the run */
  seconds: number;
  /** user + system CPU seconds the contender spent (its own process or its children) */
  cpuSeconds: number;
}

export interface Spread {
  median: number;
  min: number;
  max: number;
}

export function spread(values: number[]): Spread {
  if (values.length === 0) throw new Error('spread of no values');
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
  return { median, min: sorted[0]!, max: sorted[sorted.length - 1]! };
}

/** The order of round `round` (0-based): the contenders rotated left by `round`. */
export function roundOrder<T>(contenders: readonly T[], round: number): T[] {
  const shift = round % contenders.length;
  return [...contenders.slice(shift), ...contenders.slice(0, shift)];
}

/**
 * Runs every contender once per round, rotating the order, and returns the
 * samples by name, in round order. A round of warm-up comes first and is not
 * counted: the first run of a process is slower (code not yet compiled, a
 * server's first requests), and it would always be the first contender's
 * (a first client upload ran at 135 MB/s, the next ones at 240-370). `between`
 * runs after each run (e.g. to delete what was uploaded, so the disk does not
 * fill).
 */
export async function interleave<S extends Sample>(
  contenders: ReadonlyArray<{ name: string; run(): Promise<S> }>,
  rounds: number,
  between: () => Promise<void> = async () => undefined,
): Promise<Map<string, S[]>> {
  for (const contender of contenders) {
    await contender.run();
    await between();
  }
  const samples = new Map(contenders.map((contender) => [contender.name, [] as S[]]));
  for (let round = 0; round < rounds; round++) {
    for (const contender of roundOrder(contenders, round)) {
      samples.get(contender.name)!.push(await contender.run());
      await between();
    }
  }
  return samples;
}

/** Median, min and max of `a`'s value over `b`'s taken within each round. */
export function roundRatios(a: number[], b: number[]): Spread {
  if (a.length !== b.length) throw new Error('ratios of rounds of different counts');
  return spread(a.map((value, index) => value / b[index]!));
}

/** CPU seconds `process.cpuUsage()` counted since `start` (user + system). */
export function cpuSecondsSince(start: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1e6;
}
