/** Bank file formats (issue #45): camt.053 read, pain.001.001.03 written, the Slovak payment symbols. Pure. */
export * from './camt-read.js';
export * from './pain-write.js';
export * from './symbols.js';
