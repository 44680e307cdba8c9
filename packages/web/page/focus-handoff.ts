// Where focus goes when a server's card goes away (removed here or elsewhere) while it held focus:
// to the card after it, else the one before, else its group's heading. Left alone, the browser
// drops focus to <body>, and a keyboard or screen-reader user starts over from the top of the page.
import type { RefObject } from 'preact';
import { useLayoutEffect } from 'preact/hooks';

export function useFocusHandoff(card: RefObject<HTMLElement | null>): void {
  useLayoutEffect(
    () => () => {
      // Runs as the card unmounts, before its element leaves the document.
      const element = card.current;
      if (element === null || !element.contains(document.activeElement)) return;
      const next =
        sibling(element, 'nextElementSibling') ??
        sibling(element, 'previousElementSibling') ??
        element.closest('section')?.querySelector<HTMLElement>('h2');
      next?.focus();
    },
    [card],
  );
}

function sibling(
  element: HTMLElement,
  direction: 'nextElementSibling' | 'previousElementSibling',
): HTMLElement | undefined {
  for (let at = element[direction]; at !== null; at = at[direction]) {
    if (at instanceof HTMLElement && at.matches('article.server')) return at;
  }
  return undefined;
}
