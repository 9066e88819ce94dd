import type { Log } from '../../src-main/common/file-log.js';

/** A Log kept in memory: one `LEVEL message` a line, an error's cause after it. */
export function memoryLog(): Log & { lines: string[] } {
  const lines: string[] = [];
  return {
    lines,
    info: (message) => lines.push(`INFO ${message}`),
    warn: (message) => lines.push(`WARN ${message}`),
    error: (message, cause) => lines.push(`ERROR ${message} ${String(cause)}`),
  };
}
