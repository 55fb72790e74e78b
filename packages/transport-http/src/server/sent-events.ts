/** The window's bytes are kept in pages of this size. */
const PAGE_BYTES = 4 * 1024;
/** Free pages kept for reuse, across all streams of the process (1 MiB). */
const MAX_FREE_PAGES = 256;
const freePages: Uint8Array[] = [];
/**
 * An empty window given events of at most this many bytes keeps them in an array of their size,
 * not a page: an idle stream's window is an event or two (`session/new`'s response), and a 4 KiB
 * page for each was a tenth of an idle connection's memory.
 */
const SMALL_BYTES = 1024;

function newPage(): Uint8Array {
  return freePages.pop() ?? new Uint8Array(PAGE_BYTES);
}

function freePage(page: Uint8Array): void {
  if (freePages.length < MAX_FREE_PAGES) freePages.push(page);
}

/**
 * The sent events a stream keeps for `Last-Event-ID` replay, oldest first: their bytes in pages
 * that every stream's window draws from one pool and gives back, and each event's size. A busy
 * stream's events leave its window all the time; kept in the blocks they were queued in, each
 * block stayed until its last event left, long enough to be promoted, and then waited for a full
 * collection: at 1 MiB of window, 6 MiB more peak memory than without one. Pages are reused
 * instead (a window holds at most one partly used page at each end), and a window that shrinks
 * to its share gives its pages to the windows that grow.
 */
export class SentEvents {
  private readonly pages: Uint8Array[] = [];
  /** The bytes while the window holds only one small append (then `pages` is empty). */
  private small: Uint8Array | undefined;
  /** Where the oldest kept byte is in the first page, and how many bytes are kept. */
  private start = 0;
  private length = 0;
  /** Each kept event's size, oldest at `first`. */
  private sizes: number[] = [];
  private first = 0;

  /** How many events are kept. */
  get count(): number {
    return this.sizes.length - this.first;
  }

  /** How many bytes are kept. */
  get byteLength(): number {
    return this.length;
  }

  /** Keeps the events of `bytes` (`sizes` their sizes, in order), after the others. */
  append(bytes: Uint8Array, sizes: readonly number[]): void {
    for (const size of sizes) this.sizes.push(size);
    if (this.length === 0 && bytes.length <= SMALL_BYTES) {
      this.small = bytes.slice();
      this.start = 0;
      this.length = bytes.length;
      return;
    }
    const small = this.small;
    if (small !== undefined) {
      // A second append: what the small array kept moves into pages, before the new bytes.
      const kept = small.subarray(this.start, this.start + this.length);
      this.small = undefined;
      this.start = this.length = 0;
      this.write(kept);
    }
    this.write(bytes);
  }

  /** Puts `bytes` after the kept bytes, in pages. */
  private write(bytes: Uint8Array): void {
    let end = this.start + this.length;
    for (let from = 0; from < bytes.length; ) {
      const index = Math.floor(end / PAGE_BYTES);
      if (index === this.pages.length) this.pages.push(newPage());
      const at = end % PAGE_BYTES;
      const count = Math.min(PAGE_BYTES - at, bytes.length - from);
      (this.pages[index] as Uint8Array).set(bytes.subarray(from, from + count), at);
      from += count;
      end += count;
    }
    this.length += bytes.length;
  }

  /** Forgets the oldest event. */
  dropOldest(): void {
    const size = this.sizes[this.first++] as number;
    this.start += size;
    this.length -= size;
    if (this.length === 0) this.small = undefined;
    while (this.start >= PAGE_BYTES || (this.length === 0 && this.pages.length > 0)) {
      freePage(this.pages.shift() as Uint8Array);
      this.start = this.length === 0 ? 0 : this.start - PAGE_BYTES;
    }
    if (this.first === this.sizes.length) {
      this.sizes = [];
      this.start = this.first = 0;
    } else if (this.first >= 1024 && this.first * 2 >= this.sizes.length) {
      this.sizes = this.sizes.slice(this.first);
      this.first = 0;
    }
  }

  /** Takes the newest `count` events out: their bytes (a copy) and sizes, oldest first. */
  takeNewest(count: number): { bytes: Uint8Array; sizes: number[] } {
    const sizes = this.sizes.splice(this.sizes.length - count, count);
    let taken = 0;
    for (const size of sizes) taken += size;
    const small = this.small;
    if (small !== undefined) {
      const end = this.start + this.length;
      this.length -= taken;
      if (this.length === 0) {
        this.small = undefined;
        this.start = 0;
      }
      return { bytes: small.slice(end - taken, end), sizes };
    }
    const bytes = new Uint8Array(taken);
    let at = this.start + this.length - taken;
    for (let into = 0; into < taken; ) {
      const offset = at % PAGE_BYTES;
      const piece = Math.min(PAGE_BYTES - offset, taken - into);
      bytes.set((this.pages[Math.floor(at / PAGE_BYTES)] as Uint8Array).subarray(offset, offset + piece), into);
      into += piece;
      at += piece;
    }
    this.length -= taken;
    // Pages past the new end go back to the pool.
    const keep = this.length === 0 ? 0 : Math.ceil((this.start + this.length) / PAGE_BYTES);
    while (this.pages.length > keep) freePage(this.pages.pop() as Uint8Array);
    if (this.length === 0) this.start = 0;
    return { bytes, sizes };
  }

  /** Forgets everything. */
  clear(): void {
    for (const page of this.pages) freePage(page);
    this.pages.length = 0;
    this.small = undefined;
    this.start = this.length = this.first = 0;
    this.sizes = [];
  }
}
