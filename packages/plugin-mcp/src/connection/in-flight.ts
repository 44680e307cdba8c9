// What is in flight on a connection, by key: a Map that keeps its first entry in a field of its own.
// V8 gives a Map a new table each time a delete empties it (it shrinks, and its smallest table is
// new), so a Map that goes from one entry to none on every call allocates on every call; with one
// call in flight, the common case, this touches no Map at all.
export class InFlight<K, V extends object> {
  #firstKey: K | undefined;
  #first: V | undefined;
  #more: Map<K, V> | undefined;

  get(key: K): V | undefined {
    if (this.#first !== undefined && this.#firstKey === key) return this.#first;
    return this.#more?.get(key);
  }

  set(key: K, value: V): void {
    // Into the field only while nothing else is in flight: values() stays in the order set.
    const alone = this.#first === undefined && (this.#more === undefined || this.#more.size === 0);
    if (alone || (this.#first !== undefined && this.#firstKey === key)) {
      this.#firstKey = key;
      this.#first = value;
      return;
    }
    this.#more ??= new Map();
    this.#more.set(key, value);
  }

  delete(key: K): void {
    if (this.#first !== undefined && this.#firstKey === key) {
      this.#firstKey = undefined;
      this.#first = undefined;
    } else this.#more?.delete(key);
  }

  /** Every value, and none left. */
  takeAll(): V[] {
    const all = this.values();
    this.#firstKey = undefined;
    this.#first = undefined;
    this.#more = undefined;
    return all;
  }

  values(): V[] {
    const all = this.#first === undefined ? [] : [this.#first];
    if (this.#more !== undefined) all.push(...this.#more.values());
    return all;
  }
}
