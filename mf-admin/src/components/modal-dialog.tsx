import { useEffect, useRef, type ReactNode } from 'react';

interface ModalDialogProps {
  open: boolean;
  /** Called when the dialog asks to close: Escape, or the browser closing it. */
  onClose: () => void;
  /** id of the element that names the dialog (its heading). */
  labelledBy: string;
  className?: string;
  children: ReactNode;
}

/**
 * A native modal <dialog>: showModal() makes the rest of the page inert (focus stays inside),
 * Escape closes it, and closing returns focus to where it was. The content mounts only while
 * open, so each opening starts from a fresh form. Mark the element that should take the first
 * focus with `data-initial-focus`; without one the browser focuses the first focusable field.
 */
export function ModalDialog({ open, onClose, labelledBy, className, children }: ModalDialogProps) {
  const ref = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      dialog.showModal();
      // React keeps autoFocus to itself, so the dialog's own focusing cannot see it; a marked
      // element (e.g. Cancel in a confirmation) takes the first focus instead.
      dialog.querySelector<HTMLElement>('[data-initial-focus]')?.focus();
    }
    if (!open && dialog.open) dialog.close();
  }, [open]);

  return (
    <dialog
      ref={ref}
      className={className ? `admin-dialog ${className}` : 'admin-dialog'}
      aria-labelledby={labelledBy}
      onClose={() => {
        if (open) onClose();
      }}
    >
      {open ? children : null}
    </dialog>
  );
}
