// What the page says once a server was written into the user's mcp.json, by the form or from
// pasted JSON: where, its state as the file was applied (the live view tells the rest), and the
// fields the form cannot set.

import type { AddServerResponse } from '../src/api-types.js';

export interface Added {
  readonly name: string;
  readonly answer: AddServerResponse;
}

export function AddedNotice({ added }: { readonly added: Added }) {
  return (
    <div class="notice" role="status">
      <p>
        Added <strong>{added.name}</strong> to <code>{added.answer.file}</code>
        {added.answer.status !== undefined && <> ({added.answer.status.state})</>}.
      </p>
      {added.answer.setByHand.length > 0 && (
        <p>
          Its other fields are written there by hand when you need them:{' '}
          {added.answer.setByHand.map((field, i) => (
            <span key={field}>
              {i > 0 && ', '}
              <code>{field}</code>
            </span>
          ))}
          .
        </p>
      )}
    </div>
  );
}
