// A page's answer to a server's question (README "Servers that ask you"):
//
//   POST /api/mcp/questions/:id   { "answer": { "action": "accept", "content": {…} } }, or
//                                 { "answer": { "action": "decline" | "cancel" } } (QuestionAnswer)
//
// The questions themselves reach the pages in the live view (McpView.questions). An answer is
// checked as the client checks one before it sends it: a form's fields by their kinds and bounds
// (400 `invalid_answer`, each field's problem in `fields`, the question still waiting). The first
// answer wins; a later one is 409 `question_answered`, one to a question whose request has ended
// 409 `question_gone`. Nothing of an answer is logged or kept here.
import { Hono } from 'hono';
import { apiError, sendApiError as send } from './api-errors.js';
import { boundedBody, readJsonBody } from './json-body.js';
import type { PendingQuestions } from './questions.js';

// A form of 50 fields, a few long texts among them.
const ANSWER_BYTES = 256 * 1024;

/** The route, to be mounted at /api/mcp before the routes of a server by name. */
export function questionRoutes({ questions }: { readonly questions: PendingQuestions }): Hono {
  const routes = new Hono();
  const limit = boundedBody(
    ANSWER_BYTES,
    `The answer was not sent: it is over ${ANSWER_BYTES / 1024} KiB. Shorten what you typed, then send it again.`,
  );

  routes.post('/questions/:id', limit, async (c) => {
    const read = await readJsonBody(c, 'the answer');
    if (!read.ok) return send(c, read.error);
    const outcome = questions.answer(c.req.param('id'), read.body);
    switch (outcome.kind) {
      case 'taken':
        return c.json({});
      case 'unknown':
        return send(
          c,
          apiError(
            404,
            'unknown_question',
            'No server asked this question in this launch of epoch web: reload the page to see the questions waiting.',
          ),
        );
      case 'answered':
        return send(
          c,
          apiError(
            409,
            'question_answered',
            `Server "${outcome.server}"'s question was answered already (on this page or another): the first answer went to the server.`,
          ),
        );
      case 'gone':
        return send(
          c,
          apiError(
            409,
            'question_gone',
            `Server "${outcome.server}" waits for this answer no more: the request that asked it ended, or the question's time ran out.`,
          ),
        );
      case 'invalid':
        return send(
          c,
          apiError(
            400,
            'invalid_answer',
            `The answer to server "${outcome.server}" was not sent: ${outcome.problem}. Correct it, then send it again.`,
            outcome.fields === undefined ? {} : { fieldProblems: outcome.fields },
          ),
        );
    }
  });
  return routes;
}
