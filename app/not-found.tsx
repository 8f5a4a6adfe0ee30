import Link from "next/link";

/**
 * One page for "does not exist" and "you may not see it" alike (docs/design.md §5: no oracle). A section, not a <main>: inside
 * the signed-in layout it renders within that layout's <main>.
 */
export default function NotFound() {
  return (
    <section className="mx-auto max-w-xl px-6 py-24 text-center" data-testid="not-found">
      <p className="text-sm font-semibold text-sky-700 dark:text-sky-400">404</p>
      <h1 className="mt-2 text-2xl font-semibold">Not found</h1>
      <p className="mt-3 text-zinc-600 dark:text-zinc-400">
        There is nothing here, or you do not have access to it.
      </p>
      <Link href="/" className="mt-6 inline-block rounded-md bg-zinc-900 px-4 py-2 text-sm text-white dark:bg-zinc-100 dark:text-zinc-900">
        Back to your scopes
      </Link>
    </section>
  );
}
