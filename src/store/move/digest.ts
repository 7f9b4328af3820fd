import { createHash } from 'node:crypto';
import { fingerprint } from './cells.js';
import type { Cell } from './side.js';

const MOD = 1n << 128n;

/**
 * A table's rows as a count and a checksum of every value, the same whatever order the rows come in
 * (each engine orders text its own way): the sum of each row's hash. Equal on both sides means the same
 * rows, value for value.
 */
export class Digest {
  rows = 0;
  private sum = 0n;

  /** `json[i]`: the i-th column holds JSON on either side. */
  constructor(private readonly json: readonly boolean[]) {}

  add(rows: readonly Cell[][]): void {
    for (const row of rows) {
      const hash = createHash('sha256');
      row.forEach((cell, i) => {
        const text = fingerprint(cell, this.json[i] ?? false);
        hash.update(`${text.length}:${text}\u0000`);
      });
      this.sum = (this.sum + BigInt(`0x${hash.digest('hex').slice(0, 32)}`)) % MOD;
      this.rows++;
    }
  }

  get checksum(): string {
    return this.sum.toString(16).padStart(32, '0');
  }

  same(other: Digest): boolean {
    return this.rows === other.rows && this.sum === other.sum;
  }
}
