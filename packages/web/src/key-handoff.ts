// One-time addresses that hand this launch's key to a browser: what `epoch web --open` gives the
// OS opener instead of the URL with the key in it. An opener's arguments are on its command line,
// which every local user can read (`ps`) for as long as it runs — often as long as the browser.
// `/open/<id>` answers its first request with a 303 to `/#token=<key>`: the key travels only in
// that answer, over the loopback connection. An id is good for one request within TTL_MS; after
// that it is refused, and the printed URL (which carries the key itself) is the way in. Another
// user who reads the id off `ps` and asks first is refused without using it up (peer-owner.ts).
import { randomBytes } from 'node:crypto';

/** Long enough for a browser started cold to ask; the printed URL serves anything later. */
const TTL_MS = 60_000;

export interface KeyHandoffsOptions {
  /** How long an id stays good. Default 60 s; tests pass 0 to see one expire. */
  readonly ttlMs?: number;
}

export class KeyHandoffs {
  readonly #ttlMs: number;
  /** Each unused id and when it stops being good (Date.now() milliseconds). */
  readonly #ids = new Map<string, number>();

  constructor(options: KeyHandoffsOptions = {}) {
    this.#ttlMs = options.ttlMs ?? TTL_MS;
  }

  /** A new id, good once. */
  mint(): string {
    const now = Date.now();
    for (const [id, until] of this.#ids) if (until <= now) this.#ids.delete(id);
    const id = randomBytes(32).toString('base64url');
    this.#ids.set(id, now + this.#ttlMs);
    return id;
  }

  /** Whether `id` is one of ours and still good; either way it is good no more. */
  take(id: string): boolean {
    const until = this.#ids.get(id);
    this.#ids.delete(id);
    return until !== undefined && Date.now() < until;
  }
}
