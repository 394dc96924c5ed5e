/** GrowingArray (indexer/growing-array.ts): the columns a builder fills, handed over without a copy when nearly full. */
import { describe, expect, it } from 'vitest';
import { fitted, GrowingArray } from '../indexer/growing-array.ts';

describe('GrowingArray', () => {
  it('hands over a column reserved to about its length as a view, and a mostly empty one as a copy', () => {
    const reserved = new GrowingArray((size) => new Int32Array(size));
    reserved.reserve(1000 + 64);
    for (let i = 0; i < 1000; i++) reserved.push(i * 3);
    const view = reserved.done();
    expect(view.length).toBe(1000);
    expect(view.buffer.byteLength).toBe((1000 + 64) * 4);
    expect(Array.from(view.subarray(995))).toEqual([2985, 2988, 2991, 2994, 2997]);

    const doubled = new GrowingArray((size) => new Float64Array(size));
    for (let i = 0; i < 1025; i++) doubled.push(i / 2);
    const copy = doubled.done();
    expect(copy.length).toBe(1025);
    expect(copy.buffer.byteLength).toBe(1025 * 8);
    expect(copy[1024]).toBe(512);
  });

  it('keeps what it handed over when pushed to again', () => {
    // 1,000 values in the 1,024 it starts with: handed over as a view, and the next pushes write past it.
    const full = new GrowingArray((size) => new Uint16Array(size));
    for (let i = 0; i < 1000; i++) full.push(i + 1);
    const done = full.done();
    expect(done.buffer.byteLength).toBe(1024 * 2);
    for (let i = 1000; i < 1100; i++) full.push(i + 1);
    expect(done.length).toBe(1000);
    expect(Array.from(done.subarray(996))).toEqual([997, 998, 999, 1000]);
    expect(full.done().length).toBe(1100);
  });

  it('fits an array to a length: a view up to an eighth unused, else a copy', () => {
    const array = Uint8Array.from({ length: 64 }, (_, i) => i);
    expect(fitted(array, 56).buffer).toBe(array.buffer);
    expect(fitted(array, 55).buffer).not.toBe(array.buffer);
    expect(Array.from(fitted(array, 55))).toEqual(Array.from(array.subarray(0, 55)));
  });
});
