/** Binary search in a sorted list of strings (UTF-16 order, as `<` compares them). */

/** The first index at or after `from` whose string is not below `key`. */
export function lowerBound(sorted: readonly string[], key: string, from = 0): number {
  let low = from;
  let high = sorted.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (sorted[mid] < key) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** The range [from, to) of sorted strings that start with the prefix. */
export function prefixRange(sorted: readonly string[], prefix: string, from = 0): [number, number] {
  const start = lowerBound(sorted, prefix, from);
  // The end: the first string not starting with the prefix (prefix + the highest UTF-16 unit).
  return [start, lowerBound(sorted, `${prefix}\uffff`, start)];
}
