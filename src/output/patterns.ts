// Many strings found in a text in one pass, whatever their number: an Aho-Corasick automaton over UTF-16 code units.
// The redaction (redact.ts) finds every form of every secret of an exchange with one scan of each text, in time
// linear in the text and in the secrets, where a search per secret would take their product.

/** Code units below this are looked up in a table at the root: most of a text is scanned there. */
const tableSize = 128;
/** A transition's key: the node and the code unit (nodes stay far below 2^36, so the key is an exact number). */
const keyOf = (node: number, unit: number) => node * 65_536 + unit;

export class Patterns {
  /** The trie's transitions, by keyOf(node, unit); node 0 is the root. */
  private readonly next = new Map<number, number>();
  /** The root's transitions for the code units below tableSize (0: none). */
  private readonly rootTable = new Int32Array(tableSize);
  /** The failure link of each node: the node of its longest proper suffix that is in the trie. */
  private readonly fail: Int32Array;
  /** The length of the longest pattern that is a suffix of each node's text (0: none). */
  private readonly longest: Int32Array;

  constructor(patterns: Iterable<string>) {
    const ends = [0];
    // The children of each node, as a first child and the next sibling, for the breadth-first pass below.
    const firstChild = [0];
    const sibling = [0];
    const unitOf = [0];
    let nodes = 1;
    for (const pattern of patterns) {
      if (pattern.length === 0) continue;
      let node = 0;
      for (let index = 0; index < pattern.length; index++) {
        const unit = pattern.charCodeAt(index);
        let child = this.next.get(keyOf(node, unit));
        if (child === undefined) {
          child = nodes++;
          this.next.set(keyOf(node, unit), child);
          if (node === 0 && unit < tableSize) this.rootTable[unit] = child;
          ends.push(0);
          firstChild.push(0);
          sibling.push(firstChild[node]!);
          unitOf.push(unit);
          firstChild[node] = child;
        }
        node = child;
      }
      ends[node] = pattern.length;
    }
    this.fail = new Int32Array(nodes);
    this.longest = new Int32Array(nodes);
    // Breadth first: a node's failure link is a shorter node, whose own link and longest match are known by then.
    const queue = new Int32Array(nodes);
    let tail = 0;
    for (let child = firstChild[0]!; child !== 0; child = sibling[child]!) {
      queue[tail++] = child;
      this.longest[child] = ends[child]!;
    }
    for (let head = 0; head < tail; head++) {
      const node = queue[head]!;
      for (let child = firstChild[node]!; child !== 0; child = sibling[child]!) {
        const unit = unitOf[child]!;
        let link = this.fail[node]!;
        let target = this.step(link, unit);
        while (target === 0 && link !== 0) {
          link = this.fail[link]!;
          target = this.step(link, unit);
        }
        this.fail[child] = target;
        this.longest[child] = ends[child]! || this.longest[target]!;
        queue[tail++] = child;
      }
    }
  }

  /** The node a transition leads to from `node` on `unit`, or 0 when the trie has none. */
  private step(node: number, unit: number): number {
    if (node === 0 && unit < tableSize) return this.rootTable[unit]!;
    return this.next.get(keyOf(node, unit)) ?? 0;
  }

  /**
   * The text with every occurrence of every pattern replaced: where occurrences overlap or one holds another, the
   * span they cover together is replaced once. The text itself when no pattern occurs in it.
   */
  replace(text: string, replacement: string): string {
    // The covered spans, disjoint and in order: [starts[i], ends[i]) for i < count.
    const starts: number[] = [];
    const ends: number[] = [];
    let node = 0;
    for (let index = 0; index < text.length; index++) {
      const unit = text.charCodeAt(index);
      let target = this.step(node, unit);
      while (target === 0 && node !== 0) {
        node = this.fail[node]!;
        target = this.step(node, unit);
      }
      node = target;
      const length = this.longest[node]!;
      if (length === 0) continue;
      // The longest occurrence that ends here holds every shorter one that ends here; it may reach back over spans
      // found before (which then merge into it).
      let start = index + 1 - length;
      while (ends.length > 0 && ends[ends.length - 1]! > start) {
        start = Math.min(start, starts.pop()!);
        ends.pop();
      }
      starts.push(start);
      ends.push(index + 1);
    }
    if (starts.length === 0) return text;
    const parts: string[] = [];
    let from = 0;
    for (let span = 0; span < starts.length; span++) {
      parts.push(text.slice(from, starts[span]), replacement);
      from = ends[span]!;
    }
    parts.push(text.slice(from));
    return parts.join('');
  }
}
