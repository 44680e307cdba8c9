// A modal dialog opened by a button on a server's card, whose answer takes that button away (the
// server starts; no tool is withheld any more): where focus goes. Closed unanswered, back to the
// button; answered, to the card, since the button goes with the answer. And when the live view
// takes the button away first (the answer came by another way, or before the request's own), the
// dialog is closed and focus waits on the card rather than dropping to <body>: the dialog is
// closed first, as outside an open one the page is inert and cannot take focus.
import type { RefObject } from 'preact';
import { useLayoutEffect, useRef } from 'preact/hooks';

export interface CardDialog {
  readonly dialog: RefObject<HTMLDialogElement | null>;
  readonly opener: RefObject<HTMLButtonElement | null>;
  /** Shows the dialog; a close without an answer gives focus back to the opener. */
  readonly show: () => void;
  /** The question was answered: closes the dialog and gives focus to the card. */
  readonly answered: () => void;
  /** The dialog's onClose. */
  readonly onClose: () => void;
}

export function useCardDialog(): CardDialog {
  const dialog = useRef<HTMLDialogElement>(null);
  const opener = useRef<HTMLButtonElement>(null);
  const answered = useRef(false);
  const card = () => opener.current?.closest<HTMLElement>('article');

  useLayoutEffect(
    () => () => {
      const element = dialog.current;
      const active = element?.ownerDocument.activeElement;
      const held = element?.contains(active ?? null) || opener.current === active;
      const gone = card();
      answered.current = true;
      if (element?.open) element.close();
      if (held) gone?.focus();
    },
    [],
  );

  return {
    dialog,
    opener,
    show: () => {
      answered.current = false;
      dialog.current?.showModal();
    },
    answered: () => {
      answered.current = true;
      dialog.current?.close();
      card()?.focus();
    },
    onClose: () => {
      if (!answered.current) opener.current?.focus();
    },
  };
}
