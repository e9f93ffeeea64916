/** NATS helpers: contexts, typed request/reply, service registration. */

export { coalesceStats, decodeFrames, encodeFrames, type Frame } from './batch.js';
export * from './context.js';
export * from './large-payload.js';
export * from './nats.js';
export * from './serve.js';
