/**
 * A column of strings held as bytes gives back every string as it was given — real words of
 * Debian documentation in several scripts, emoji, lone surrogates, empty strings — finds an entry
 * as a Map filled in order finds it, and refuses damaged arrays with an IndexCorruptError.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { IndexCorruptError } from '../indexer/text-index/errors.ts';
import { StringColumn, StringColumnBuilder } from '../indexer/text-index/string-column.ts';
import { debianDocs } from './helpers/debian-docs.ts';

const AWKWARD = ['', '\u{1f600}', 'a\u{1f600}b', '\ud800', 'x\udfff', '\udfff\ud800', 'a\uffff', '\ue000', '中文', '日本語', '한국어', 'straße', 'e\u0301', '', 'http://example.test/a?b=c#d', 'x'.repeat(20_000)];

/** Words and titles of real pages (lines of Debian documentation in every language installed). */
function realStrings(): string[] {
  const strings: string[] = [];
  for (const doc of debianDocs().filter((_, i) => i % 5 === 0)) {
    const text = readFileSync(doc.path, 'utf8').replace(/<[^>]+>/g, ' ');
    for (const line of text.split('\n').slice(0, 400)) strings.push(line.trim());
  }
  return strings;
}

describe('a string column', () => {
  it('gives back real text, emoji, lone surrogates and empty strings as they were', () => {
    const strings = [...realStrings(), ...AWKWARD];
    const column = StringColumn.fromStrings(strings);
    expect(column.length).toBe(strings.length);
    for (let i = 0; i < strings.length; i++) expect(column.at(i)).toBe(strings[i]);
    expect(StringColumn.problemWith(column.bytes, column.offsets)).toBeNull();
    const reread = StringColumn.fromFile(column.bytes.slice(), column.offsets.slice(), 'titles');
    expect(reread.toArray()).toEqual(strings);
  });

  it('copies entries of another column as they are', () => {
    const source = StringColumn.fromStrings(AWKWARD);
    const builder = new StringColumnBuilder();
    for (let i = AWKWARD.length - 1; i >= 0; i--) builder.addEntry(source, i);
    builder.add('\ud83d');
    expect(builder.done().toArray()).toEqual([...AWKWARD].reverse().concat('\ud83d'));
  });

  it('fills the room it is told of later without growing, and grows past it', () => {
    const strings = [...realStrings(), ...AWKWARD];
    const source = StringColumn.fromStrings(strings);
    const firstBytes = StringColumn.fromStrings([strings[0]]).bytes.length;
    const told = new StringColumnBuilder();
    told.add(strings[0]);
    told.expect({ entries: strings.length + 1, bytes: source.bytes.length + firstBytes });
    for (let i = 0; i < strings.length; i++) told.addEntry(source, i);
    const column = told.done();
    expect(column.toArray()).toEqual([strings[0], ...strings]);
    // One array of the size told: filled to within an eighth, it is handed over as a view of it.
    expect(column.bytes.buffer.byteLength).toBe(source.bytes.length + firstBytes);
    expect(column.offsets.buffer.byteLength).toBe((strings.length + 2) * 4);
    told.expect({ entries: 1, bytes: 1 });
    told.add('past the room');
    expect(told.done().at(strings.length + 1)).toBe('past the room');
  });

  it('finds the last entry equal to a string, as a Map filled in order does', () => {
    const strings = [...realStrings().slice(0, 3000), ...AWKWARD, 'http://a.test/1', 'http://a.test/1'];
    const column = StringColumn.fromStrings(strings);
    const map = new Map(strings.map((s, i) => [s, i]));
    for (const s of [...strings, 'absent', '\ud801', 'http://a.test/']) expect(column.indexOf(s)).toBe(map.get(s) ?? -1);
    expect(StringColumn.fromStrings([]).indexOf('')).toBe(-1);
  });

  it('refuses damaged arrays, naming what is wrong', () => {
    const small = StringColumn.fromStrings(['abc', 'é', '', 'z']);
    const copy = () => ({ bytes: small.bytes.slice(), offsets: small.offsets.slice() });
    const notText = copy();
    notText.bytes[3] = 0xff;
    expect(StringColumn.problemWith(notText.bytes, notText.offsets)).toMatch(/entry 1 that is not text/);
    const split = copy();
    split.offsets[1] = 4;
    expect(StringColumn.problemWith(split.bytes, split.offsets)).toMatch(/not text/);
    const decreasing = copy();
    decreasing.offsets[2] = 2;
    expect(StringColumn.problemWith(decreasing.bytes, decreasing.offsets)).toMatch(/decrease/);
    const short = copy();
    expect(() => StringColumn.fromFile(short.bytes.subarray(0, 4), short.offsets, 'suggest titles')).toThrow(IndexCorruptError);
    expect(() => StringColumn.fromFile(short.bytes.subarray(0, 4), short.offsets, 'suggest titles')).toThrow(/suggest titles: offsets that do not fit/);
    expect(() => StringColumn.fromFile(small.bytes, new Int32Array(0), 'x')).toThrow(/do not fit/);
  });

  it('checks a column read from a file in steps of bytes, with the same verdict as at once', () => {
    const strings = [...realStrings(), ...AWKWARD];
    const column = StringColumn.fromStrings(strings);
    const bytesPerStep = 4096;
    const steps = StringColumn.fromFileSteps(column.bytes, column.offsets, 'titles', bytesPerStep);
    let yields = 0;
    let step = steps.next();
    for (; !step.done; step = steps.next()) yields++;
    expect(step.value.toArray()).toEqual(strings);
    // A step ends at the first entry past its bytes: never fewer steps than the bytes allow.
    expect(yields).toBeGreaterThanOrEqual(Math.floor(column.bytes.length / (bytesPerStep + 20_000 * 3)));
    expect(yields).toBeLessThanOrEqual(Math.ceil(column.bytes.length / bytesPerStep));
    const damaged = column.bytes.slice();
    damaged[damaged.length - 1] = 0xff;
    const late = StringColumn.fromFileSteps(damaged, column.offsets, 'suggest urls', bytesPerStep);
    expect(() => {
      while (!late.next().done);
    }).toThrow(/suggest urls: entry \d+ that is not text/);
  });

  it('hands over the arrays of a builder told its size, and grows one told too little', () => {
    const strings = Array.from({ length: 1000 }, (_, i) => `https://docs.example.org/page-${i}.html`);
    const bytes = strings.reduce((sum, text) => sum + text.length, 0);
    const sized = new StringColumnBuilder({ entries: strings.length, bytes: bytes + 64 });
    for (const text of strings) sized.add(text);
    const column = sized.done();
    // A view of the builder's arrays: no copy of a column that filled them.
    expect(column.bytes.buffer.byteLength).toBe(bytes + 64);
    expect(column.bytes.byteLength).toBe(bytes);
    const small = new StringColumnBuilder({ entries: 10, bytes: 100 });
    for (let i = 0; i < strings.length; i++) small.addEntry(column, i);
    const grown = small.done();
    expect(grown.toArray()).toEqual(strings);
    // Runs of entries copied at once, into a builder that grows, equal entries copied one by one.
    const runs = new StringColumnBuilder();
    for (let i = 0; i < strings.length; i += 137) runs.addEntries(column, i, Math.min(strings.length, i + 137));
    runs.addEntries(column, 5, 5);
    expect(runs.done().toArray()).toEqual(strings);
    expect(column.toArray()).toEqual(strings);
  });
});
