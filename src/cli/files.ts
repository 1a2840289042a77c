// Files a command writes (verify's reports, record's seed): checked before any work, written whole or not at all.
import { accessSync, constants, existsSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** Why a file cannot be written, or undefined when it can: its folder must take files, and the file, if any, writes. */
export function unwritable(file: string): string | undefined {
  try {
    if (existsSync(file)) {
      if (statSync(file).isDirectory()) return 'it is a folder';
      accessSync(file, constants.W_OK);
    } else {
      accessSync(path.dirname(path.resolve(file)), constants.W_OK);
    }
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

/** Writes a file whole or not at all: a new file beside it, renamed over it (removed when that fails). */
export function writeWhole(file: string, text: string): void {
  const partial = `${file}.${process.pid}.partial`;
  try {
    writeFileSync(partial, text);
    renameSync(partial, file);
  } catch (error) {
    rmSync(partial, { force: true });
    throw error;
  }
}
