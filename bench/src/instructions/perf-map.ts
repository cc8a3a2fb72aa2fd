/**
 * Names for V8's JIT-compiled code. Node started with `--perf-basic-prof` appends `start size name` (hex) to
 * `/tmp/perf-<pid>.map` for every code object it creates; callgrind only sees their addresses.
 */
export interface PerfMap {
  nameAt(address: number): string | undefined;
}

export function parsePerfMap(text: string): PerfMap {
  const starts: number[] = [];
  const ends: number[] = [];
  const names: string[] = [];
  for (const line of text.split('\n')) {
    const first = line.indexOf(' ');
    const second = line.indexOf(' ', first + 1);
    if (first <= 0 || second <= first) continue;
    const start = Number.parseInt(line.slice(0, first), 16);
    const size = Number.parseInt(line.slice(first + 1, second), 16);
    if (!Number.isFinite(start) || !Number.isFinite(size)) continue;
    starts.push(start);
    ends.push(start + size);
    names.push(line.slice(second + 1));
  }
  return {
    // Code is collected and its space reused, so ranges overlap: the latest line covering the address is the code
    // that lived there last. (Code compiled after the counted window can still shadow it; the map is read once.)
    // A linear scan from the end: a few thousand lookups per dump over tens of thousands of lines.
    nameAt(address) {
      for (let index = starts.length - 1; index >= 0; index -= 1) {
        if (address >= starts[index] && address < ends[index]) return names[index];
      }
      return undefined;
    },
  };
}

/** `0x0000000028019140` as callgrind names symbol-less code; null for a real symbol. */
export function addressOf(name: string): number | null {
  return /^0x[0-9a-f]+$/i.test(name) ? Number.parseInt(name.slice(2), 16) : null;
}
