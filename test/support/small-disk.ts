import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A small tmpfs of its own: a disk that really fills up. */
export interface SmallDisk {
  dir: string;
  /** Writes a filler file until the disk answers ENOSPC. */
  fill(): void;
  /** Deletes the filler: the disk has room again. */
  free(): void;
  close(): void;
}

/** Mounts a tmpfs of `sizeMb`; undefined when this machine does not let the tests mount one. */
export function mountSmallDisk(sizeMb = 2): SmallDisk | undefined {
  const dir = mkdtempSync(join(tmpdir(), 'tsai-small-disk-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeMb}m`, 'tmpfs', dir], { stdio: 'ignore' });
  } catch {
    rmSync(dir, { recursive: true, force: true });
    return undefined;
  }
  const filler = join(dir, 'filler');
  return {
    dir,
    fill() {
      const fd = openSync(filler, 'a');
      const block = Buffer.alloc(4096);
      try {
        for (;;) writeSync(fd, block);
      } catch (e) {
        if ((e as { code?: string }).code !== 'ENOSPC') throw e;
      } finally {
        closeSync(fd);
      }
    },
    free() {
      rmSync(filler, { force: true });
    },
    close() {
      try {
        execFileSync('umount', ['-l', dir], { stdio: 'ignore' });
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

/** Whether the tests may mount a tmpfs here (root in a container that allows it). */
export const canMountSmallDisk: boolean = (() => {
  const disk = mountSmallDisk(1);
  disk?.close();
  return disk !== undefined;
})();
