// Many strings looked for in a text at once (Aho–Corasick): one pass over the text whatever their
// number. The redactor looks for every secret of a server — an env_file may give 80,000 values,
// each in four spellings — in every piece of text the server prints; one search per secret would
// make each line cost as much as all of them.

/** Where something was found: `text.slice(start, end)`. */
export type Range = readonly [start: number, end: number];

export interface Scan {
  /** Every occurrence, sorted, overlapping or touching ones joined. */
  readonly ranges: Range[];
  /** Where the longest end of the text that begins some needle (but is not all of it) starts. */
  readonly partialStart: number;
}

/**
 * The strings to look for, made into one automaton when constructed (time and memory in
 * proportion to their total length). Its states are the starts of the strings, kept in typed
 * arrays by number rather than as objects: a million of them is a few tens of MB, not hundreds.
 */
export class NeedleSearch {
  readonly #trie: Trie;

  constructor(needles: Iterable<string>) {
    this.#trie = new Trie();
    for (const needle of needles) this.#trie.add(needle);
    this.#trie.link();
  }

  /**
   * Finds the needles in `text`. `carry`: how many characters at its start are the rest of a
   * needle begun before it; they count as found.
   */
  scan(text: string, carry = 0): Scan {
    const trie = this.#trie;
    // Joined as they are found: each ends at or after the one before, so a new one can only
    // swallow ranges at the top of the stack.
    const ranges: [number, number][] = carry > 0 ? [[0, carry]] : [];
    let state = 0;
    for (let i = 0; i < text.length; i++) {
      state = trie.next(state, text.charCodeAt(i));
      const length = trie.longest[state] ?? 0;
      if (length === 0) continue;
      let start = i + 1 - length;
      let end = i + 1;
      for (let top = ranges.at(-1); top !== undefined && top[1] >= start; top = ranges.at(-1)) {
        start = Math.min(start, top[0]);
        end = Math.max(end, top[1]);
        ranges.pop();
      }
      ranges.push([start, end]);
    }
    // The state is the longest end of the text that begins a needle; the first of it and its own
    // ends that some needle goes on past is the one that may be completed by what follows.
    while (state !== 0 && trie.inner[state] === 0) state = trie.fail[state] ?? 0;
    return { ranges, partialStart: text.length - (trie.depth[state] ?? 0) };
  }
}

const INITIAL_NODES = 64;

/**
 * The automaton: node 0 is the empty start; each other node a start of some needle, one character
 * longer than its parent. A child is found by hashing (parent, character) into an open-addressed
 * table of node numbers, so a node's children cost no object of their own.
 */
class Trie {
  #size = 1;
  parent = new Int32Array(INITIAL_NODES);
  char = new Uint16Array(INITIAL_NODES);
  depth = new Int32Array(INITIAL_NODES);
  /** The node of the longest proper end of this node's text that is also a node. */
  fail = new Int32Array(INITIAL_NODES);
  /** The length of the longest needle that ends this node's text; 0 for none. */
  longest = new Int32Array(INITIAL_NODES);
  /** 1 when some needle goes on past this node. */
  inner = new Uint8Array(INITIAL_NODES);
  /** Node numbers by hash of (parent, char); 0 is an empty slot (node 0 is nobody's child). */
  #slots = new Int32Array(INITIAL_NODES * 2);

  add(needle: string): void {
    if (needle.length === 0) return;
    let node = 0;
    for (let i = 0; i < needle.length; i++) {
      const char = needle.charCodeAt(i);
      const slot = this.#slot(node, char);
      const child = this.#slots[slot] ?? 0;
      node = child !== 0 ? child : this.#create(node, char, this.#grown() ? undefined : slot);
    }
    this.longest[node] = needle.length;
  }

  /** Each node's fail link and longest needle, shallow nodes first (a fail link is shallower). */
  link(): void {
    for (const node of this.#byDepth()) {
      const parent = this.parent[node] ?? 0;
      const char = this.char[node] ?? 0;
      const fail = parent === 0 ? 0 : this.next(this.fail[parent] ?? 0, char);
      this.fail[node] = fail;
      if (this.longest[node] === 0) this.longest[node] = this.longest[fail] ?? 0;
    }
  }

  /** The state after reading `char` in state `node`. */
  next(node: number, char: number): number {
    for (let at = node; ; at = this.fail[at] ?? 0) {
      const child = this.#slots[this.#slot(at, char)] ?? 0;
      if (child !== 0) return child;
      if (at === 0) return 0;
    }
  }

  /** Every node but the start, by depth (a counting sort: depths are at most a needle's length). */
  #byDepth(): Int32Array {
    let deepest = 0;
    for (let node = 1; node < this.#size; node++)
      deepest = Math.max(deepest, this.depth[node] ?? 0);
    // How many nodes are at each depth, then where the first of each depth goes.
    const at = new Int32Array(deepest + 1);
    for (let node = 1; node < this.#size; node++) {
      const d = this.depth[node] ?? 0;
      at[d] = (at[d] ?? 0) + 1;
    }
    let sum = 0;
    for (let d = 0; d <= deepest; d++) {
      const count = at[d] ?? 0;
      at[d] = sum;
      sum += count;
    }
    const order = new Int32Array(this.#size - 1);
    for (let node = 1; node < this.#size; node++) {
      const d = this.depth[node] ?? 0;
      const place = at[d] ?? 0;
      order[place] = node;
      at[d] = place + 1;
    }
    return order;
  }

  /** `slot`: where the new node goes, when no growth since it was found moved it. */
  #create(parent: number, char: number, slot = this.#slot(parent, char)): number {
    const node = this.#size++;
    this.parent[node] = parent;
    this.char[node] = char;
    this.depth[node] = (this.depth[parent] ?? 0) + 1;
    this.inner[parent] = 1;
    this.#slots[slot] = node;
    return node;
  }

  /** Makes room for one more node (twice as many, the table rehashed); true when it did. */
  #grown(): boolean {
    if (this.#size < this.parent.length) return false;
    const capacity = this.parent.length * 2;
    const int32 = (array: Int32Array) => {
      const out = new Int32Array(capacity);
      out.set(array);
      return out;
    };
    this.parent = int32(this.parent);
    this.depth = int32(this.depth);
    this.fail = int32(this.fail);
    this.longest = int32(this.longest);
    const char = new Uint16Array(capacity);
    char.set(this.char);
    this.char = char;
    const inner = new Uint8Array(capacity);
    inner.set(this.inner);
    this.inner = inner;
    this.#slots = new Int32Array(capacity * 2);
    for (let node = 1; node < this.#size; node++) {
      this.#slots[this.#slot(this.parent[node] ?? 0, this.char[node] ?? 0)] = node;
    }
    return true;
  }

  /** The slot of (parent, char): where its node is, or the empty slot where it would go. */
  #slot(parent: number, char: number): number {
    const mask = this.#slots.length - 1;
    let hash = Math.imul(parent, 0x9e3779b1) ^ Math.imul(char + 1, 0x85ebca6b);
    hash = Math.imul(hash ^ (hash >>> 15), 0x2c1b3c6d);
    for (let slot = (hash ^ (hash >>> 13)) & mask; ; slot = (slot + 1) & mask) {
      const node = this.#slots[slot] ?? 0;
      if (node === 0 || (this.parent[node] === parent && this.char[node] === char)) return slot;
    }
  }
}
