// The JSON of a server's question on the page (README "Servers that ask you"): what the live view
// carries of each question waiting (McpView.questions), and a page's answer to one
// (POST /api/mcp/questions/:id). Types only, imported by the page as well. A question, never an
// answer: nothing a person typed is in the view.
import type { FieldProblem } from '@epoch-agent/plugin-mcp/elicitation';
import type {
  ElicitationAnswer,
  ElicitationDuring,
  ElicitationField,
  McpToolSource,
} from '@epoch-agent/protocol';

/**
 * A server's question waiting for a person: who asks (the server, who configured it, the request it
 * belongs to), its words, and the form's fields or the page to visit. Never an answer, and never
 * the call's ToolContext.
 */
export type QuestionView = QuestionCommon &
  (
    | { readonly mode: 'form'; readonly fields: readonly ElicitationField[] }
    | {
        readonly mode: 'url';
        readonly url: string;
        /** Scheme, host and port: what a person reads before opening `url`. */
        readonly origin: string;
      }
  );

interface QuestionCommon {
  /** Names it in POST /api/mcp/questions/:id. */
  readonly id: string;
  readonly server: string;
  readonly source: McpToolSource;
  /** The request it belongs to; absent outside any request or while `running` of them ran. */
  readonly during?: Omit<ElicitationDuring, 'context'>;
  readonly running?: number;
  /** The server's words (control, bidi and invisible characters already taken out). */
  readonly message: string;
  /** When it was asked (ms since 1970). */
  readonly since: number;
  /** ToolCallRequest.call of the page's tool call it was asked during. */
  readonly call?: string;
}

/** What is wrong with one field of a refused answer (ApiErrorBody.fieldProblems): never its value. */
export type QuestionFieldProblem = FieldProblem;

/**
 * POST /api/mcp/questions/:id: the person's answer, first one wins (200 `{}`). A form's accept
 * carries its `content`, checked by the form's rules (400 `invalid_answer` with `fieldProblems`;
 * the question still waits); a URL question's accept carries none, and is sent once the page has
 * opened the URL. 409 `question_answered` / `question_gone` when nobody waits for it any more.
 */
export interface QuestionAnswer {
  readonly answer: ElicitationAnswer;
}
