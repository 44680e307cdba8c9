// What the reaper knows of the machine's processes, whichever way it was read: one entry per
// process, and a source that reads the whole table. The sources (proc.ts, ps.ts, windows.ts) differ
// in what they cost and in what else they can tell; select.ts picks one per platform.

/** One line of the process table, as the source told it when we looked. */
export interface ProcessEntry {
  readonly pid: number;
  /**
   * When the process started, kept as text: with the pid it is the process's identity, so a pid
   * handed out again is never taken for the process we recorded. Only compared for equality,
   * except by a source whose `orphansKeepParent` (Windows), whose start times sort as text.
   */
  readonly startTime: string;
  readonly ppid: number;
  /** POSIX process group and session; 0 where the source cannot tell (never a server's id). */
  readonly pgid: number;
  readonly sid: number;
  /** Zombies (Z) and dead (X) entries hold no resources and cannot be signalled away. */
  readonly running: boolean;
}

export type ProcessTable = ReadonlyMap<number, ProcessEntry>;

/** The three ways the table is read; a Record over it makes a missing one fail to compile. */
export type ProcessTableKind = 'proc' | 'ps' | 'windows';

export interface ProcessTableSource {
  readonly kind: ProcessTableKind;
  /** The whole table read after this call, shared with the other callers of this turn. */
  readonly next: () => Promise<ProcessTable>;
  /**
   * The whole table read now, blocking: the snapshot taken before a server's stdin is ended, while
   * every parent link still holds. Undefined where POSIX parent links are not lost at an exit
   * (Windows keeps an orphan's parent pid), so the snapshot may wait for `next`.
   */
  readonly now: (() => ProcessTable) | undefined;
  /**
   * Whether an orphan keeps its dead parent's pid as ppid (Windows) instead of being handed to
   * another process (POSIX): then the tree is also followed down from a tracked process that is
   * gone, to those of its children that started after it.
   */
  readonly orphansKeepParent: boolean;
}

/**
 * `read` made shared: the callers in one turn of the event loop (the servers of a disconnectAll)
 * get one read, made in the next turn, so still after each of their calls.
 */
export function sharedRead<T>(read: () => T | Promise<T>): () => Promise<T> {
  let pending: Promise<T> | undefined;
  return () => {
    pending ??= new Promise((resolve, reject) => {
      setImmediate(() => {
        pending = undefined;
        try {
          resolve(read());
        } catch (error) {
          reject(error);
        }
      });
    });
    return pending;
  };
}
