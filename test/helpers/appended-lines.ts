import { closeSync, fstatSync, openSync, readSync, statSync } from 'node:fs';

/**
 * Counts the newline-ended lines of a file that only grows (a run's episodes.jsonl while the run appends),
 * reading only the bytes added since the last call: polling a whole multi-megabyte file every 100 ms cost
 * more CPU than the test's own work. The file is opened on the first call that finds it; a file replaced
 * (an atomic rewrite is a new inode) or cut shorter is counted again from its start.
 */
export function appendedLineCounter(file: string): (() => number) & { close(): void } {
  let fd: number | null = null;
  let offset = 0;
  let lines = 0;
  const chunk = Buffer.allocUnsafe(1 << 20);
  const count = () => {
    if (fd !== null) {
      const now = statSync(file, { throwIfNoEntry: false });
      if (!now || now.ino !== fstatSync(fd).ino || now.size < offset) {
        closeSync(fd);
        fd = null;
      }
    }
    if (fd === null) {
      try {
        fd = openSync(file, 'r');
      } catch {
        return 0;
      }
      offset = 0;
      lines = 0;
    }
    const size = fstatSync(fd).size;
    while (offset < size) {
      const n = readSync(fd, chunk, 0, Math.min(chunk.length, size - offset), offset);
      if (n === 0) break;
      // Only the n bytes just read: past them the buffer holds an earlier read's bytes.
      const read = chunk.subarray(0, n);
      for (let at = read.indexOf(10); at !== -1; at = read.indexOf(10, at + 1)) lines++;
      offset += n;
    }
    return lines;
  };
  return Object.assign(count, {
    close: () => {
      if (fd !== null) closeSync(fd);
      fd = null;
    },
  });
}
