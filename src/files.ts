// Reading a file a user names (a seed, a coverage report): a regular file, opened without waiting (a FIFO with no
// writer would hang a blocking open), read whole within a bound.
import { closeSync, constants, fstatSync, openSync, readFileSync } from 'node:fs';

/** Why a named file cannot be read: its message follows the file's name (`cannot be read (ENOENT)`). */
export class UnreadableFile extends Error {
  override readonly name = 'UnreadableFile';
}

/**
 * The text of a regular file of at most `maxBytes` (UTF-8). Throws an UnreadableFile saying why not: `cannot be read
 * (ENOENT)`, `is not a regular file (a FIFO): give a JSON file`, or `tooLarge(size)` past the bound.
 */
export function readNamedFile(file: string, maxBytes: number, tooLarge: (size: number) => string): string {
  const unreadable = (error: unknown) =>
    new UnreadableFile(`cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (error) {
    throw unreadable(error);
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile())
      throw new UnreadableFile(
        `is not a regular file (${stats.isDirectory() ? 'a directory' : stats.isFIFO() ? 'a FIFO' : 'a device or socket'}): give a JSON file`,
      );
    if (stats.size > maxBytes) throw new UnreadableFile(tooLarge(stats.size));
    return readFileSync(fd, 'utf8');
  } catch (error) {
    if (error instanceof UnreadableFile) throw error;
    throw unreadable(error);
  } finally {
    closeSync(fd);
  }
}
