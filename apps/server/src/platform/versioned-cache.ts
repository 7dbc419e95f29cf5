/**
 * Values computed from the database, kept under the version of the data they were computed from:
 * the caller reads the current version (a number the database bumps in the transaction of every
 * change the values can see) and asks for a key at that version; a value is answered from memory
 * while the version is the same and computed again once it moves, so the answer is always what
 * computing it at that moment would give. Manage Users' counts use it (store/vendor-counts.ts).
 *
 * Callers missing the same key at the same version at once share one computation. At most `limit`
 * values are kept (the oldest dropped first); a newer version drops them all.
 */
/** A value read from the database with the version of the data it was read at. */
export interface Versioned<T> {
  version: number;
  value: T;
}

export class VersionedCache<T> {
  private version = 0;
  private readonly values = new Map<string, T>();
  private readonly pending = new Map<string, Promise<T>>();

  constructor(private readonly limit = 1000) {}

  /**
   * The value of `key` at `version`; `compute` reads it from the database together with the
   * version it saw, in one snapshot (which may be newer than `version`: then it is kept under that).
   */
  get(version: number, key: string, compute: () => Promise<Versioned<T>>): Promise<T> {
    this.advance(version);
    if (this.version === version && this.values.has(key)) return Promise.resolve(this.values.get(key)!);
    const shared = `${version}\u001e${key}`;
    let computing = this.pending.get(shared);
    if (!computing) {
      computing = compute()
        .then((computed) => {
          this.keep(computed.version, key, computed.value);
          return computed.value;
        })
        .finally(() => this.pending.delete(shared));
      this.pending.set(shared, computing);
    }
    return computing;
  }

  /** How many values are kept (for tests). */
  get size(): number {
    return this.values.size;
  }

  private keep(version: number, key: string, value: T): void {
    this.advance(version);
    if (version !== this.version) return;
    if (this.values.size >= this.limit) this.values.delete(this.values.keys().next().value!);
    this.values.set(key, value);
  }

  /** A newer version: every value kept is of an older state. */
  private advance(version: number): void {
    if (version <= this.version) return;
    this.version = version;
    this.values.clear();
  }
}
