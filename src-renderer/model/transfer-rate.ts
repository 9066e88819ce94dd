// The meter and its formatters are shared with the CLI's progress line: they live in src-shared/model.
export * from '../../src-shared/model/transfer-rate.js';
export { formatDuration, formatRate } from '../../src-shared/model/format.js';
