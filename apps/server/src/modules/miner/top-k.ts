/**
 * The first `k` of a stream of (id, value) pairs in list order — by value, ties by id, both in
 * `direction` — without sorting the stream: a heap of the `k` best so far, its worst on top, so
 * most pairs of a large mine cost one comparison. Values are numbers: the caller maps a missing
 * value to the end it sorts at (±Infinity).
 */
export class TopK {
  private readonly ids: Float64Array;
  private readonly values: Float64Array;
  private size = 0;
  private readonly sign: 1 | -1;

  constructor(
    private readonly k: number,
    direction: 'asc' | 'desc',
  ) {
    this.ids = new Float64Array(k);
    this.values = new Float64Array(k);
    this.sign = direction === 'asc' ? 1 : -1;
  }

  /** Negative when pair a comes before pair b in the list's order. */
  private compare(aValue: number, aId: number, bValue: number, bId: number): number {
    const byValue = aValue < bValue ? -1 : aValue > bValue ? 1 : 0;
    return this.sign * (byValue !== 0 ? byValue : aId - bId);
  }

  /** Heap order: the later pair in the list on top. */
  private later(i: number, j: number): boolean {
    return this.compare(this.values[i]!, this.ids[i]!, this.values[j]!, this.ids[j]!) > 0;
  }

  private swap(i: number, j: number): void {
    const id = this.ids[i]!;
    const value = this.values[i]!;
    this.ids[i] = this.ids[j]!;
    this.values[i] = this.values[j]!;
    this.ids[j] = id;
    this.values[j] = value;
  }

  add(id: number, value: number): void {
    if (this.k === 0) return;
    if (this.size < this.k) {
      let i = this.size++;
      this.ids[i] = id;
      this.values[i] = value;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (!this.later(i, parent)) break;
        this.swap(i, parent);
        i = parent;
      }
      return;
    }
    // Only a pair before the current k-th replaces it.
    if (this.compare(value, id, this.values[0]!, this.ids[0]!) >= 0) return;
    this.ids[0] = id;
    this.values[0] = value;
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let top = i;
      if (left < this.size && this.later(left, top)) top = left;
      if (right < this.size && this.later(right, top)) top = right;
      if (top === i) break;
      this.swap(i, top);
      i = top;
    }
  }

  /** The ids kept, in list order. */
  result(): number[] {
    const order = Array.from({ length: this.size }, (_, i) => i);
    order.sort((a, b) => this.compare(this.values[a]!, this.ids[a]!, this.values[b]!, this.ids[b]!));
    return order.map((i) => this.ids[i]!);
  }
}
