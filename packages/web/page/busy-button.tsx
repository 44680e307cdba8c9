// A button whose action takes a while (Run, Add server, Add from JSON, Import): never `disabled`,
// since a disabled button drops keyboard focus to <body>, where the next Enter or Space does
// nothing or scrolls the page. While busy (or when there is nothing to do) it is aria-disabled,
// busy while its action runs, and ignores activation — a click, or the Enter that submits its form.
import type { ButtonHTMLAttributes } from 'preact';

type Props = Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'disabled' | 'onClick'> & {
  /** Its action is running: activation is ignored, and it says it is busy. */
  readonly busy: boolean;
  /** Nothing to do now (no server checked): activation is ignored. */
  readonly inactive?: boolean;
  readonly onClick?: () => void;
};

export function BusyButton(props: Props) {
  // An `aria-disabled` of the caller's own (Run of a tool that is gone) still activates, to say why.
  const { busy, inactive = false, onClick, 'aria-disabled': unavailable, ...button } = props;
  const ignored = busy || inactive;
  return (
    <button
      type="button"
      {...button}
      aria-disabled={ignored || unavailable === true}
      aria-busy={busy}
      // Cancelling the click also cancels the submit that a form's Enter makes through it.
      onClick={(event) => {
        if (ignored) event.preventDefault();
        else onClick?.();
      }}
    />
  );
}
