// The version of one entry's text, for a write that says which text it was based on: the same text
// gives the same version in this process, and a version says nothing of the secrets in the text.
import { createHmac, randomBytes } from 'node:crypto';

// Keyed, and the key never leaves the process: a plain hash of an entry holding a short token
// could be guessed back from the hash, and the version goes to the page.
const KEY = randomBytes(32);

export function entryVersion(text: string): string {
  return createHmac('sha256', KEY).update(text).digest('base64url');
}
