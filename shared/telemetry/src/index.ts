export * from './metrics.js';
export * from './tracing.js';
