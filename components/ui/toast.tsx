"use client";

import { createContext, useCallback, useContext, useState, type ReactNode } from "react";

export interface Toast {
  id: number;
  text: string;
  tone: "ok" | "error";
  /** An undo offered while the toast shows (only where undoing is safe). */
  undo?: () => void;
}

const ToastContext = createContext<(toast: Omit<Toast, "id">) => void>(() => undefined);

/** Confirms a completed action after the element that started it is gone (a reviewed card leaves the queue). */
export function useToast(): (toast: Omit<Toast, "id">) => void {
  return useContext(ToastContext);
}

let nextId = 1;

/** The page's toasts: a polite live region at the bottom; each stays 8 s, or until dismissed. */
export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const dismiss = useCallback((id: number) => setToasts((list) => list.filter((t) => t.id !== id)), []);
  const push = useCallback(
    (toast: Omit<Toast, "id">) => {
      const id = nextId++;
      setToasts((list) => [...list.slice(-2), { ...toast, id }]);
      setTimeout(() => dismiss(id), 8_000);
    },
    [dismiss],
  );
  return (
    <ToastContext.Provider value={push}>
      {children}
      <div aria-live="polite" className="pointer-events-none fixed inset-x-0 bottom-4 z-50 flex flex-col items-center gap-2 px-4" data-testid="toasts">
        {toasts.map((t) => (
          <div
            key={t.id}
            role={t.tone === "error" ? "alert" : "status"}
            className={`pointer-events-auto flex max-w-lg items-center gap-3 rounded-md px-4 py-2 text-sm shadow-lg ${t.tone === "ok" ? "bg-zinc-900 text-white dark:bg-zinc-100 dark:text-zinc-900" : "bg-red-700 text-white"}`}
            data-testid="toast"
          >
            <span>{t.text}</span>
            {t.undo ? (
              <button
                type="button"
                className="font-semibold underline"
                onClick={() => {
                  t.undo?.();
                  dismiss(t.id);
                }}
              >
                Undo
              </button>
            ) : null}
            <button type="button" aria-label="Dismiss" className="ml-auto opacity-80 hover:opacity-100" onClick={() => dismiss(t.id)}>
              ×
            </button>
          </div>
        ))}
      </div>
    </ToastContext.Provider>
  );
}
