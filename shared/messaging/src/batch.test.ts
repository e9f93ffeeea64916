/** The batch wire format of request coalescing (batch.ts, issue #24): frames in, the same frames out. */
import { describe, expect, it } from 'vitest';
import { decodeFrames, encodeFrames, type Frame } from './batch.js';

const enc = new TextEncoder();
const frame = (headers: Record<string, string>, body: string): Frame => ({ headers, data: enc.encode(body) });

describe('batch frames', () => {
  it('round-trips frames with their headers, empty bodies and non-ASCII text, in order', () => {
    const frames = [
      frame({ 'Company-Id': 'c1', 'Request-Id': 'r1', 'Timeout-Ms': '4750' }, '{"ordnerCode":"VY"}'),
      frame({}, ''),
      frame({ 'Request-Id': 'r3' }, '{"name":"Položka ščťž €"}'),
    ];
    const body = encodeFrames(frames);
    // 3 × (4 + headers + 4 + body) bytes, lengths big-endian.
    const sizes = frames.map((f) => 8 + enc.encode(JSON.stringify(f.headers)).length + f.data.length);
    expect(body.length).toBe(sizes.reduce((a, b) => a + b, 0));
    expect(new DataView(body.buffer).getUint32(0)).toBe(enc.encode(JSON.stringify(frames[0].headers)).length);
    const back = decodeFrames(body);
    expect(back.map((f) => f.headers)).toEqual(frames.map((f) => f.headers));
    expect(back.map((f) => new TextDecoder().decode(f.data))).toEqual([
      '{"ordnerCode":"VY"}',
      '',
      '{"name":"Položka ščťž €"}',
    ]);
  });

  it('reads frames from a view into a larger buffer (as a NATS message body is)', () => {
    const body = encodeFrames([frame({ a: '1' }, 'x'), frame({ b: '2' }, 'yz')]);
    const big = new Uint8Array(body.length + 10);
    big.set(body, 5);
    const back = decodeFrames(big.subarray(5, 5 + body.length));
    expect(back.map((f) => [f.headers, f.data.length])).toEqual([
      [{ a: '1' }, 1],
      [{ b: '2' }, 2],
    ]);
  });

  it('refuses a truncated body, a length past the end, headers that are not an object of strings, and surplus frames', () => {
    const body = encodeFrames([frame({ a: '1' }, 'abc')]);
    expect(() => decodeFrames(body.subarray(0, body.length - 1))).toThrow(/longer than the message/);
    expect(() => decodeFrames(body.subarray(0, 2))).toThrow(/truncated/);
    const notObject = encodeFrames([{ headers: [] as any, data: new Uint8Array() }]);
    expect(() => decodeFrames(notObject)).toThrow(/not an object/);
    const notString = encodeFrames([{ headers: { a: 1 } as any, data: new Uint8Array() }]);
    expect(() => decodeFrames(notString)).toThrow(/not a string/);
    const two = encodeFrames([frame({}, 'a'), frame({}, 'b')]);
    expect(decodeFrames(two, 2)).toHaveLength(2);
    expect(() => decodeFrames(two, 1)).toThrow(/more frames than sent/);
  });
});
