// What a runtime does with the connects it starts, at build and in each edit it applies: awaits
// them, so a command can report how every server ended; or leaves them running, so a front end
// that shows servers as they connect (the connectors page) is never held up by the slowest one.
// Those left running are still the runtime's: close() ends them, then waits until they settle.

import type { Logger } from '@epoch-agent/infra';
import { messageOf } from '@epoch-agent/infra';

/** See BuildRuntimeOptions.connect. */
export type ConnectMode = 'wait' | 'background';

export class ConnectsInFlight {
  readonly #mode: ConnectMode;
  readonly #logger: Logger;
  readonly #running = new Set<Promise<void>>();

  constructor(mode: ConnectMode, logger: Logger) {
    this.#mode = mode;
    this.#logger = logger;
  }

  /**
   * `work` (a connectAll, or an update that may start or stop a server): awaited, its rejection
   * thrown, in `wait` mode; otherwise left running, a rejection logged (no caller is there to
   * hear it), and this resolves at once.
   */
  async run(work: Promise<unknown>): Promise<void> {
    if (this.#mode === 'wait') {
      await work;
      return;
    }
    const running: Promise<void> = work
      .then(
        () => undefined,
        (error: unknown) =>
          this.#logger.error(`An MCP server could not be started: ${messageOf(error)}`),
      )
      .finally(() => this.#running.delete(running));
    this.#running.add(running);
  }

  /** Resolves once every connect left running has settled. */
  async settled(): Promise<void> {
    await Promise.all(this.#running);
  }
}
