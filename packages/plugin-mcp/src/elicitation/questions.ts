// The questions of one connection: the requests in flight a server's question may belong to, and
// each question passed to ask.ts with them. A 2026-era question comes inside its request's answer,
// so its request is known. A 2025-era one (an elicitation/create request of the server's) names no
// request: it is the connection's one request in flight (inferred), one of several (`running`),
// or of none — and a question asked outside any request is bounded as one request's are.
import type { ToolContext } from '@epoch-agent/protocol';
import { InFlight } from '../connection/in-flight.js';
import {
  ask,
  type ElicitReply,
  type QuestionAsker,
  type QuestionTarget,
  type Replied,
} from './ask.js';

/** What a request a question may belong to is, as the question names it. */
export interface AskingRequest {
  readonly kind: 'tool' | 'resource' | 'prompt';
  /** The tool's or prompt's name on the server, or the resource's URI. */
  readonly name: string;
  /** A tool call's ToolContext, as the host passed it to `execute`. */
  readonly context?: ToolContext;
}

export class ConnectionQuestions {
  readonly #asker: QuestionAsker;
  readonly #running = new InFlight<QuestionTarget, QuestionTarget>();
  /** Questions asked while no request ran: counted as one request's questions are. */
  readonly #outside = { asked: 0 };

  constructor(asker: QuestionAsker) {
    this.#asker = asker;
  }

  /** Whether someone can be asked: then the server is told it may ask. */
  get canAsk(): boolean {
    return this.#asker.elicit !== undefined;
  }

  /**
   * Runs `request` with `target` counted as in flight on this connection, so that a 2025-era
   * question asked meanwhile can name it.
   */
  during<T>(target: QuestionTarget, request: () => Promise<T>): Promise<T> {
    this.#running.set(target, target);
    let running: Promise<T>;
    try {
      running = request();
    } catch (error) {
      running = Promise.reject(error);
    }
    const settled = (): void => {
      this.#running.delete(target);
    };
    running.then(settled, settled);
    return running;
  }

  /** A 2025-era server's elicitation/create; `signal`: the server no longer waits for it. */
  async fromServer(params: unknown, signal: AbortSignal): Promise<ElicitReply> {
    const targets = this.#running.values();
    const { reply } = await ask(this.#asker, {
      params,
      targets,
      inferred: true,
      counters: targets.length > 0 ? targets : [this.#outside],
      signal,
    });
    return reply;
  }

  /** A 2026-era question inside the answer to `target`. */
  inside(target: QuestionTarget, params: unknown): Promise<Replied> {
    return ask(this.#asker, { params, targets: [target], inferred: false, counters: [target] });
  }
}
