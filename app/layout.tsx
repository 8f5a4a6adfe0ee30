import type { Metadata } from "next";
import type { ReactNode } from "react";
import { Providers } from "@/components/providers";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Credence", template: "%s · Credence" },
  description: "Belief graphs with calibrated credences, evidence trails and visible disagreement.",
  icons: { icon: [{ url: "/favicon.ico", sizes: "32x32" }, { url: "/icon.svg", type: "image/svg+xml" }] },
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body className="min-h-screen font-sans">
        <a href="#content" className="sr-only z-50 rounded bg-white px-3 py-2 text-sm text-sky-800 focus:not-sr-only focus:absolute focus:left-2 focus:top-2 dark:bg-zinc-900 dark:text-sky-300">
          Skip to content
        </a>
        <Providers>{children}</Providers>
      </body>
    </html>
  );
}
