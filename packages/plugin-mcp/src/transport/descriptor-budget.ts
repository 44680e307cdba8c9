// How many stdio servers this process can hold at once. Each one keeps pipes open (stdin, stdout,
// stderr) for as long as it runs, and a process out of descriptors fails every open after that:
// the next spawn, and the host's own files and sockets. So a start takes a slot first, and a
// server that finds none fails at once with a message that says what to change.
//
// The limit is the soft RLIMIT_NOFILE (Linux: /proc/self/limits); the cost of one server is
// measured on the first spawn (the descriptors in /proc/self/fd before and after it), never
// assumed. Without /proc (macOS, Windows) nothing is bounded here; an EMFILE is still that
// server's own failure (stdio.ts).
import { readdirSync, readFileSync } from 'node:fs';

/**
 * Descriptors left to the rest of the process (its HTTP sockets, files, the reaper's reads of
 * /proc) when every slot is taken.
 */
export const RESERVE = 64;

/** What a start holds until its server's pipes are gone. */
export interface DescriptorSlot {
  /** Runs the spawn; the first one is measured. */
  spawn<T>(start: () => T): T;
  /** Gives the slot back. Idempotent. */
  release(): void;
}

export class DescriptorBudget {
  /** The soft limit on open descriptors; undefined where it cannot be read. */
  readonly limit: number | undefined;
  #capacity: number | undefined;
  #held = 0;
  #measuring = false;

  constructor(limit: number | undefined = softLimit()) {
    this.limit = limit;
  }

  /** How many servers fit; undefined until the first spawn was measured, or without a limit. */
  get capacity(): number | undefined {
    return this.#capacity;
  }

  get held(): number {
    return this.#held;
  }

  /** A slot, or undefined when every one is held. */
  take(): DescriptorSlot | undefined {
    if (this.#capacity !== undefined && this.#held >= this.#capacity) return undefined;
    this.#held += 1;
    let released = false;
    const measure = this.limit !== undefined && this.#capacity === undefined && !this.#measuring;
    if (measure) this.#measuring = true;
    return {
      spawn: <T>(start: () => T): T => (measure ? this.#measure(start) : start()),
      release: () => {
        if (released) return;
        released = true;
        this.#held -= 1;
      },
    };
  }

  #measure<T>(start: () => T): T {
    const before = openDescriptors();
    try {
      return start();
    } finally {
      const after = openDescriptors();
      this.#measuring = false;
      const limit = this.limit;
      if (before !== undefined && after !== undefined && after > before && limit !== undefined) {
        // `before` counts what the process holds besides its servers, the ones running included.
        const others = before - (this.#held - 1) * (after - before);
        this.#capacity = Math.max(1, Math.floor((limit - others - RESERVE) / (after - before)));
      }
    }
  }
}

/** The soft "Max open files" of this process (Linux); undefined elsewhere or when unlimited. */
function softLimit(): number | undefined {
  try {
    const line = readFileSync('/proc/self/limits', 'utf8')
      .split('\n')
      .find((row) => row.startsWith('Max open files'));
    const soft = Number(line?.split(/\s{2,}/)[1]);
    return Number.isSafeInteger(soft) && soft > 0 ? soft : undefined;
  } catch {
    return undefined;
  }
}

function openDescriptors(): number | undefined {
  try {
    return readdirSync('/proc/self/fd').length;
  } catch {
    return undefined;
  }
}

/** The one budget of this process: every stdio transport draws on it. */
export const descriptorBudget = new DescriptorBudget();
