// The example host's `elicit`: a server's question put to the person at the terminal, one prompt
// per field, never to the model. It reads the person's lines from stdin (typed on a terminal; in
// the test, written by a scripted person) and writes its prompts to stderr, so stdout stays the
// host's log. A secret field is read without echo and its value goes into the answer only.
import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';
import { openInBrowser, valueProblem } from '@epoch-agent/runtime';

/**
 * `callOf`: the host's ToolContext of each running call -> the call's id, to say which call a
 * question belongs to (a host with several sessions routes it the same way). Returns `elicit`
 * and `close` (call it at the end: it lets go of stdin).
 */
export function terminalAsker(callOf) {
  let muted = false;
  // Readline echoes what is typed through this; muted while a secret is typed.
  const echo = new Writable({
    write(chunk, encoding, done) {
      if (!muted) process.stderr.write(chunk, encoding);
      done();
    },
  });
  const reader = createInterface({
    input: process.stdin,
    output: echo,
    prompt: '',
    terminal: process.stdin.isTTY === true,
  });
  // Lines typed before a question is asked wait here, in order.
  const lines = reader[Symbol.asyncIterator]();
  // On a terminal, readline takes Ctrl-C: it cancels the open question (the server is answered
  // `cancel`); with none open it stops the host, as Ctrl-C does without readline.
  let interrupt;
  reader.on('SIGINT', () => (interrupt ?? (() => process.kill(process.pid, 'SIGINT')))());
  let pending;
  // One read at a time: a question closed while it waits leaves its read to the next question.
  const nextLine = () => {
    pending ??= lines.next().finally(() => {
      pending = undefined;
    });
    return pending;
  };

  /** The person's next line; undefined when the question was closed or nobody is there. */
  async function read(prompt, signal, secret = false) {
    if (signal.aborted) return undefined;
    process.stderr.write(prompt);
    muted = secret;
    let stop;
    const closed = new Promise((resolve) => {
      stop = () => resolve({ done: true });
      signal.addEventListener('abort', stop, { once: true });
    });
    interrupt = stop;
    let line;
    try {
      line = await Promise.race([nextLine(), closed]);
      return line.done ? undefined : line.value;
    } finally {
      signal.removeEventListener('abort', stop);
      interrupt = undefined;
      muted = false;
      // The cursor leaves the prompt's line: nothing echoed a secret's Enter, or none was typed.
      if (secret || line?.done !== false) process.stderr.write('\n');
    }
  }

  async function askForm(question, signal) {
    const content = {};
    for (const field of question.fields) {
      // A password, or a PIN asked as a number: typed unseen either way.
      const secret = field.secret === true;
      for (;;) {
        const typed = await read(promptOf(field), signal, secret);
        if (typed === undefined) return { action: 'cancel' };
        // Left empty: its default (filled in by the client), or nothing for an optional field.
        if (typed === '' && (field.default !== undefined || !field.required)) break;
        const value = typedValue(field, typed);
        const problem = typed === '' ? 'required' : valueProblem(field, value);
        if (problem === undefined) {
          content[field.name] = value;
          break;
        }
        process.stderr.write(`  ${field.label} ${problem}\n`);
      }
    }
    const send = await read('Send these answers to the server? [y/N] ', signal);
    if (send === undefined) return { action: 'cancel' };
    return yes(send) ? { action: 'accept', content } : { action: 'decline' };
  }

  async function askUrl(question, signal) {
    process.stderr.write(`It asks you to visit a page of\n  ${question.origin}\n`);
    const open = await read(`Open ${question.origin} in your browser? [y/N] `, signal);
    if (open === undefined) return { action: 'cancel' };
    if (!yes(open)) return { action: 'decline' };
    await openInBrowser(question.url);
    return { action: 'accept' };
  }

  return {
    async elicit(question, signal) {
      const { server, source, during, running, message } = question;
      const call = during?.context === undefined ? undefined : callOf.get(during.context);
      const where =
        during !== undefined
          ? `during ${during.kind} ${during.name}${call === undefined ? '' : ` (call ${call})`}`
          : running !== undefined
            ? `while ${running} of its requests run`
            : 'outside any request';
      // The host's log says who asked and where; the question itself goes to the person only.
      console.log(`question from ${server} (${source} server) ${where}`);
      process.stderr.write(`\n${server} (${source} server) asks, ${where}:\n  ${message}\n`);
      return question.mode === 'form' ? askForm(question, signal) : askUrl(question, signal);
    },
    close: () => reader.close(),
  };
}

function promptOf(field) {
  const about = field.description === undefined ? '' : ` (${field.description})`;
  const choices =
    field.kind === 'choice' || field.kind === 'choices'
      ? ` ${field.options.map((option, i) => `${i + 1}=${option.label}`).join(', ')}`
      : field.kind === 'boolean'
        ? ' [y/n]'
        : '';
  const fallback = field.default === undefined ? '' : ` [default ${shown(field, field.default)}]`;
  return `  ${field.label}${about}${choices}${fallback}: `;
}

/** A choice by its number, several as numbers separated by commas, yes/no, numbers as numbers. */
function typedValue(field, typed) {
  const pick = (text) => field.options[Number(text.trim()) - 1]?.value ?? text.trim();
  switch (field.kind) {
    case 'number':
      return typed.trim() === '' ? Number.NaN : Number(typed);
    case 'boolean':
      return yes(typed) ? true : /^(n|no)$/i.test(typed.trim()) ? false : typed;
    case 'choice':
      return pick(typed);
    case 'choices':
      return typed.split(',').map(pick);
    default:
      return typed;
  }
}

function shown(field, value) {
  const label = (v) => field.options?.find((option) => option.value === v)?.label ?? String(v);
  return Array.isArray(value) ? value.map(label).join(', ') : label(value);
}

const yes = (typed) => /^(y|yes)$/i.test(typed.trim());
