/**
 * Node's own modules that only some paths use, loaded at their first use
 * rather than imported: an ESM import of node:crypto costs a process about
 * 4 ms at start and node:zlib 2 ms, which a command such as `queue ls` never
 * needs (bench/cli-start.ts). The module is loaded once; later calls answer
 * it from Node's cache.
 */
export const nodeCrypto = () => process.getBuiltinModule('node:crypto');
export const nodeZlib = () => process.getBuiltinModule('node:zlib');
