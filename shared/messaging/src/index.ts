/** NATS helpers: contexts, typed request/reply, service registration. */
export * from './context.js';
export * from './large-payload.js';
export * from './nats.js';
