// A long text in a box of its own that scrolls inside the card rather than pushing the page: a
// tool's result or schema, a resource, a prompt's message. Focusable, so that a keyboard can
// scroll it as a mouse can (WCAG 2.1.1).

export function ScrollText({
  class: name,
  text,
}: {
  readonly class?: string;
  readonly text: string;
}) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: it scrolls, and a keyboard must reach it to scroll it.
    <pre class={name} tabIndex={0}>
      {text}
    </pre>
  );
}
