"use client";

import { useEffect, useId, useRef, type ReactNode } from "react";
import { buttonClass, secondaryButtonClass } from "./form";

/**
 * A modal question before a consequential step, on the native `<dialog>` (`showModal`): the page behind is inert, Tab
 * stays inside, Escape cancels. Focus starts on `initialFocus` (the safe answer when the step looks like a mistake, or
 * the first field when the dialog asks for something) and returns to the element that had it when the dialog closes. `confirmType="submit"` makes the confirm button submit
 * the form the dialog sits in (the form's own validation and pending state apply).
 */
export function ConfirmDialog({
  open,
  title,
  children,
  confirmLabel,
  cancelLabel = "Cancel",
  onConfirm,
  onCancel,
  confirmType = "button",
  initialFocus = "confirm",
  pending = false,
  testId,
}: {
  open: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  cancelLabel?: string;
  onConfirm?: () => void;
  onCancel: () => void;
  confirmType?: "button" | "submit";
  initialFocus?: "confirm" | "cancel" | "field";
  pending?: boolean;
  testId?: string;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const confirmRef = useRef<HTMLButtonElement>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);
  const returnTo = useRef<HTMLElement | null>(null);
  const titleId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      returnTo.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      dialog.showModal();
      const field = initialFocus === "field" ? dialog.querySelector<HTMLElement>("textarea, input:not([type=hidden]), select") : null;
      (field ?? (initialFocus === "cancel" ? cancelRef.current : confirmRef.current))?.focus();
    } else if (!open && dialog.open) {
      dialog.close();
    }
  }, [open, initialFocus]);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    // Escape: the browser closes the dialog itself; the parent hears it as a cancel.
    const onCancelEvent = (event: Event) => {
      event.preventDefault();
      onCancel();
    };
    const onClose = () => {
      const target = returnTo.current;
      returnTo.current = null;
      if (target?.isConnected) target.focus();
    };
    dialog.addEventListener("cancel", onCancelEvent);
    dialog.addEventListener("close", onClose);
    return () => {
      dialog.removeEventListener("cancel", onCancelEvent);
      dialog.removeEventListener("close", onClose);
    };
  }, [onCancel]);

  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      className="m-auto max-h-[calc(100dvh-2rem)] w-[min(36rem,calc(100vw-2rem))] overflow-y-auto rounded-lg border border-zinc-200 bg-white p-0 text-zinc-900 shadow-xl backdrop:bg-zinc-950/50 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100"
      data-testid={testId}
    >
      <div className="space-y-3 p-5">
        <h2 id={titleId} className="text-lg font-semibold">{title}</h2>
        <div className="space-y-2 text-sm">{children}</div>
        <div className="flex flex-wrap justify-end gap-2 pt-2">
          <button ref={cancelRef} type="button" className={secondaryButtonClass} onClick={onCancel}>
            {cancelLabel}
          </button>
          <button ref={confirmRef} type={confirmType} className={buttonClass} disabled={pending} onClick={confirmType === "button" ? onConfirm : undefined}>
            {pending ? "Saving…" : confirmLabel}
          </button>
        </div>
      </div>
    </dialog>
  );
}
