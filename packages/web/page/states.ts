// How the page shows each state a server can be in: the word beside its dot, the dot's tone, and
// what the person can do about it. A Record over every state, so a state added to the plugin's
// status union shows up here as a compile error, not as a server with no word.
import type { McpServerState } from '@epoch-agent/runtime';

export type Tone = 'good' | 'busy' | 'quiet' | 'bad';

export interface StateLook {
  readonly word: string;
  readonly tone: Tone;
  /** What to do, when there is something to do. */
  readonly hint?: string;
}

export const STATE_LOOKS: Record<McpServerState, StateLook> = {
  connected: { word: 'connected', tone: 'good' },
  connecting: { word: 'connecting', tone: 'busy' },
  reconnecting: {
    word: 'reconnecting',
    tone: 'busy',
    hint: 'epoch retries by itself; Reconnect starts over now.',
  },
  notStarted: {
    word: 'not started',
    tone: 'quiet',
    hint: 'It starts on demand ("start": "on_demand"): its first tool call, or Try, starts it, and the tools shown are the ones it listed last time. Reconnect starts it now.',
  },
  idle: {
    word: 'idle',
    tone: 'quiet',
    hint: 'Closed after its idle timeout; the next tool call connects it again.',
  },
  needsLogin: {
    word: 'needs login',
    tone: 'bad',
    hint: 'The server refused the credentials: log in (or fix its headers by hand), then it reconnects.',
  },
  failed: {
    word: 'failed',
    tone: 'bad',
    hint: 'Fix what the error names (its entry, or the program it runs), then Reconnect.',
  },
  disconnected: { word: 'disconnected', tone: 'quiet' },
  needsApproval: {
    word: 'needs approval',
    tone: 'bad',
    hint: 'Not started: it runs only once you approve what it would run, which Review… shows.',
  },
  disabled: {
    word: 'disabled',
    tone: 'quiet',
    hint: 'Turned off: epoch does not start it, and the model gets none of its tools.',
  },
};
