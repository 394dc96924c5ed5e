/**
 * The fixed tables of eld 2.1.0's detector besides its n-grams, copied so that detection does not
 * load eld's modules: which characters are letters, the character each UTF-8 byte stands for in
 * its n-gram keys, and the average top score of a right detection per language.
 */

/**
 * The letters of the Basic Multilingual Plane as eld lists them (as a regular expression class
 * body). Not `\p{L}`: Node's Unicode is newer and counts 16 more code points as letters.
 */
const ELD_LETTERS =
  'A-Za-z\xAA\xB5\xBA\xC0-\xD6\xD8-\xF6\xF8-\u02C1\u02C6-\u02D1\u02E0-\u02E4\u02EC\u02EE\u0370-' +
  '\u0374\u0376\u0377\u037A-\u037D\u037F\u0386\u0388-\u038A\u038C\u038E-\u03A1\u03A3-\u03F5' +
  '\u03F7-\u0481\u048A-\u052F\u0531-\u0556\u0559\u0560-\u0588\u05D0-\u05EA\u05EF-\u05F2\u0620-' +
  '\u064A\u066E\u066F\u0671-\u06D3\u06D5\u06E5\u06E6\u06EE\u06EF\u06FA-\u06FC\u06FF\u0710' +
  '\u0712-\u072F\u074D-\u07A5\u07B1\u07CA-\u07EA\u07F4\u07F5\u07FA\u0800-\u0815\u081A\u0824' +
  '\u0828\u0840-\u0858\u0860-\u086A\u0870-\u0887\u0889-\u088E\u08A0-\u08C9\u0904-\u0939\u093D' +
  '\u0950\u0958-\u0961\u0971-\u0980\u0985-\u098C\u098F\u0990\u0993-\u09A8\u09AA-\u09B0\u09B2' +
  '\u09B6-\u09B9\u09BD\u09CE\u09DC\u09DD\u09DF-\u09E1\u09F0\u09F1\u09FC\u0A05-\u0A0A\u0A0F' +
  '\u0A10\u0A13-\u0A28\u0A2A-\u0A30\u0A32\u0A33\u0A35\u0A36\u0A38\u0A39\u0A59-\u0A5C\u0A5E' +
  '\u0A72-\u0A74\u0A85-\u0A8D\u0A8F-\u0A91\u0A93-\u0AA8\u0AAA-\u0AB0\u0AB2\u0AB3\u0AB5-\u0AB9' +
  '\u0ABD\u0AD0\u0AE0\u0AE1\u0AF9\u0B05-\u0B0C\u0B0F\u0B10\u0B13-\u0B28\u0B2A-\u0B30\u0B32' +
  '\u0B33\u0B35-\u0B39\u0B3D\u0B5C\u0B5D\u0B5F-\u0B61\u0B71\u0B83\u0B85-\u0B8A\u0B8E-\u0B90' +
  '\u0B92-\u0B95\u0B99\u0B9A\u0B9C\u0B9E\u0B9F\u0BA3\u0BA4\u0BA8-\u0BAA\u0BAE-\u0BB9\u0BD0' +
  '\u0C05-\u0C0C\u0C0E-\u0C10\u0C12-\u0C28\u0C2A-\u0C39\u0C3D\u0C58-\u0C5A\u0C5D\u0C60\u0C61' +
  '\u0C80\u0C85-\u0C8C\u0C8E-\u0C90\u0C92-\u0CA8\u0CAA-\u0CB3\u0CB5-\u0CB9\u0CBD\u0CDD\u0CDE' +
  '\u0CE0\u0CE1\u0CF1\u0CF2\u0D04-\u0D0C\u0D0E-\u0D10\u0D12-\u0D3A\u0D3D\u0D4E\u0D54-\u0D56' +
  '\u0D5F-\u0D61\u0D7A-\u0D7F\u0D85-\u0D96\u0D9A-\u0DB1\u0DB3-\u0DBB\u0DBD\u0DC0-\u0DC6\u0E01-' +
  '\u0E30\u0E32\u0E33\u0E40-\u0E46\u0E81\u0E82\u0E84\u0E86-\u0E8A\u0E8C-\u0EA3\u0EA5\u0EA7-' +
  '\u0EB0\u0EB2\u0EB3\u0EBD\u0EC0-\u0EC4\u0EC6\u0EDC-\u0EDF\u0F00\u0F40-\u0F47\u0F49-\u0F6C' +
  '\u0F88-\u0F8C\u1000-\u102A\u103F\u1050-\u1055\u105A-\u105D\u1061\u1065\u1066\u106E-\u1070' +
  '\u1075-\u1081\u108E\u10A0-\u10C5\u10C7\u10CD\u10D0-\u10FA\u10FC-\u1248\u124A-\u124D\u1250-' +
  '\u1256\u1258\u125A-\u125D\u1260-\u1288\u128A-\u128D\u1290-\u12B0\u12B2-\u12B5\u12B8-\u12BE' +
  '\u12C0\u12C2-\u12C5\u12C8-\u12D6\u12D8-\u1310\u1312-\u1315\u1318-\u135A\u1380-\u138F\u13A0-' +
  '\u13F5\u13F8-\u13FD\u1401-\u166C\u166F-\u167F\u1681-\u169A\u16A0-\u16EA\u16F1-\u16F8\u1700-' +
  '\u1711\u171F-\u1731\u1740-\u1751\u1760-\u176C\u176E-\u1770\u1780-\u17B3\u17D7\u17DC\u1820-' +
  '\u1878\u1880-\u1884\u1887-\u18A8\u18AA\u18B0-\u18F5\u1900-\u191E\u1950-\u196D\u1970-\u1974' +
  '\u1980-\u19AB\u19B0-\u19C9\u1A00-\u1A16\u1A20-\u1A54\u1AA7\u1B05-\u1B33\u1B45-\u1B4C\u1B83-' +
  '\u1BA0\u1BAE\u1BAF\u1BBA-\u1BE5\u1C00-\u1C23\u1C4D-\u1C4F\u1C5A-\u1C7D\u1C80-\u1C88\u1C90-' +
  '\u1CBA\u1CBD-\u1CBF\u1CE9-\u1CEC\u1CEE-\u1CF3\u1CF5\u1CF6\u1CFA\u1D00-\u1DBF\u1E00-\u1F15' +
  '\u1F18-\u1F1D\u1F20-\u1F45\u1F48-\u1F4D\u1F50-\u1F57\u1F59\u1F5B\u1F5D\u1F5F-\u1F7D\u1F80-' +
  '\u1FB4\u1FB6-\u1FBC\u1FBE\u1FC2-\u1FC4\u1FC6-\u1FCC\u1FD0-\u1FD3\u1FD6-\u1FDB\u1FE0-\u1FEC' +
  '\u1FF2-\u1FF4\u1FF6-\u1FFC\u2071\u207F\u2090-\u209C\u2102\u2107\u210A-\u2113\u2115\u2119-' +
  '\u211D\u2124\u2126\u2128\u212A-\u212D\u212F-\u2139\u213C-\u213F\u2145-\u2149\u214E\u2183' +
  '\u2184\u2C00-\u2CE4\u2CEB-\u2CEE\u2CF2\u2CF3\u2D00-\u2D25\u2D27\u2D2D\u2D30-\u2D67\u2D6F' +
  '\u2D80-\u2D96\u2DA0-\u2DA6\u2DA8-\u2DAE\u2DB0-\u2DB6\u2DB8-\u2DBE\u2DC0-\u2DC6\u2DC8-\u2DCE' +
  '\u2DD0-\u2DD6\u2DD8-\u2DDE\u2E2F\u3005\u3006\u3031-\u3035\u303B\u303C\u3041-\u3096\u309D-' +
  '\u309F\u30A1-\u30FA\u30FC-\u30FF\u3105-\u312F\u3131-\u318E\u31A0-\u31BF\u31F0-\u31FF\u3400-' +
  '\u4DBF\u4E00-\uA48C\uA4D0-\uA4FD\uA500-\uA60C\uA610-\uA61F\uA62A\uA62B\uA640-\uA66E\uA67F-' +
  '\uA69D\uA6A0-\uA6E5\uA717-\uA71F\uA722-\uA788\uA78B-\uA7CA\uA7D0\uA7D1\uA7D3\uA7D5-\uA7D9' +
  '\uA7F2-\uA801\uA803-\uA805\uA807-\uA80A\uA80C-\uA822\uA840-\uA873\uA882-\uA8B3\uA8F2-\uA8F7' +
  '\uA8FB\uA8FD\uA8FE\uA90A-\uA925\uA930-\uA946\uA960-\uA97C\uA984-\uA9B2\uA9CF\uA9E0-\uA9E4' +
  '\uA9E6-\uA9EF\uA9FA-\uA9FE\uAA00-\uAA28\uAA40-\uAA42\uAA44-\uAA4B\uAA60-\uAA76\uAA7A\uAA7E-' +
  '\uAAAF\uAAB1\uAAB5\uAAB6\uAAB9-\uAABD\uAAC0\uAAC2\uAADB-\uAADD\uAAE0-\uAAEA\uAAF2-\uAAF4' +
  '\uAB01-\uAB06\uAB09-\uAB0E\uAB11-\uAB16\uAB20-\uAB26\uAB28-\uAB2E\uAB30-\uAB5A\uAB5C-\uAB69' +
  '\uAB70-\uABE2\uAC00-\uD7A3\uD7B0-\uD7C6\uD7CB-\uD7FB\uF900-\uFA6D\uFA70-\uFAD9\uFB00-\uFB06' +
  '\uFB13-\uFB17\uFB1D\uFB1F-\uFB28\uFB2A-\uFB36\uFB38-\uFB3C\uFB3E\uFB40\uFB41\uFB43\uFB44' +
  '\uFB46-\uFBB1\uFBD3-\uFD3D\uFD50-\uFD8F\uFD92-\uFDC7\uFDF0-\uFDFB\uFE70-\uFE74\uFE76-\uFEFC' +
  '\uFF21-\uFF3A\uFF41-\uFF5A\uFF66-\uFFBE\uFFC2-\uFFC7\uFFCA-\uFFCF\uFFD2-\uFFD7\uFFDA-\uFFDC';

/**
 * Runs of anything but letters become one space; a run ending in an apostrophe, backquote or
 * right single quote is kept so that contractions (`don't`) stay one word.
 */
export const SEPARATORS = new RegExp(`[^${ELD_LETTERS}]+(?<![\\x27\\x60\\u2019])`, 'gu');

/**
 * The character standing for each byte 0x80–0xFF in the n-gram keys (bytes below 0x80 stand for
 * themselves). Several bytes share a character, spaces among them: keys are compared as these
 * characters, not as the bytes.
 */
export const HIGH_BYTE_SYMBOLS: Uint8Array = Uint8Array.of(
  0x4d, 0x32, 0x52, 0x4a, 0x4f, 0x50, 0x7b, 0xe4, 0x3e, 0xe2, 0xfc, 0xe9, 0x5f, 0x51, 0xe1, 0xf4,
  0xeb, 0xe5, 0xf5, 0xe8, 0xef, 0x5a, 0xfb, 0x7d, 0xe0, 0x33, 0xf9, 0xc9, 0x59, 0xee, 0xed, 0x5d,
  0x7c, 0x29, 0xff, 0x7e, 0x31, 0x56, 0x44, 0x54, 0x34, 0x38, 0x46, 0x49, 0x4b, 0x37, 0x57, 0x53,
  0x2f, 0x45, 0x42, 0x35, 0x3b, 0x4e, 0x43, 0xea, 0x2a, 0x58, 0x3d, 0x5e, 0x3a, 0x5b, 0x48, 0xf2,
  0x20, 0x20, 0xa2, 0x21, 0x28, 0x2c, 0xdf, 0x20, 0xf8, 0xf3, 0x20, 0x20, 0x20, 0x20, 0x55, 0xf6,
  0x36, 0x40, 0xc0, 0xc1, 0x20, 0x3c, 0xfd, 0x47, 0x2d, 0x41, 0xf1, 0xfa, 0x20, 0x20, 0x20, 0x20,
  0x24, 0x4c, 0xe6, 0x3f, 0x30, 0x22, 0x23, 0x25, 0x26, 0x2b, 0xec, 0x39, 0x2e, 0xe7, 0x20, 0xb5,
  0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20,
);

/** The average top score of a right detection, per language (eld's reliability threshold). */
export const AVERAGE_SCORES: Readonly<Record<string, number>> = {
  am: 0.832, ar: 0.845, az: 0.804, be: 0.841, bg: 0.838, bn: 0.876, ca: 0.762, cs: 0.759,
  da: 0.77, de: 0.777, el: 0.801, en: 0.777, es: 0.771, et: 0.779, eu: 0.746, fa: 0.831,
  fi: 0.784, fr: 0.783, gu: 0.872, he: 0.803, hi: 0.883, hr: 0.77, hu: 0.752, hy: 0.802,
  is: 0.788, it: 0.784, ja: 0.796, ka: 0.893, kn: 0.875, ko: 0.764, ku: 0.853, lo: 0.873,
  lt: 0.777, lv: 0.789, ml: 0.874, mr: 0.884, ms: 0.774, nl: 0.77, no: 0.75, or: 0.872,
  pa: 0.873, pl: 0.768, pt: 0.78, ro: 0.771, ru: 0.833, sk: 0.763, sl: 0.771, sq: 0.789,
  sr: 0.838, sv: 0.767, ta: 0.882, te: 0.878, th: 0.864, tl: 0.777, tr: 0.783, uk: 0.836,
  ur: 0.827, vi: 0.848, yo: 0.752, zh: 0.752,
};
