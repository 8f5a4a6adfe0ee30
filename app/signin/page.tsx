import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { currentUser } from "@/lib/auth/session";
import { oidcSignInAction } from "@/lib/actions/auth-actions";
import { getEnv } from "@/lib/env";
import { secondaryButtonClass } from "@/components/ui/form";
import { SignInForm } from "./sign-in-form";

export const metadata: Metadata = { title: "Sign in" };

export default async function SignInPage({ searchParams }: { searchParams: Promise<{ callbackUrl?: string }> }) {
  const { callbackUrl } = await searchParams;
  const target = callbackUrl?.startsWith("/") && !callbackUrl.startsWith("//") ? callbackUrl : "/";
  if (await currentUser()) redirect(target);
  const env = getEnv();
  return (
    <main id="content" className="mx-auto flex min-h-screen max-w-sm flex-col justify-center px-6">
      <h1 className="text-2xl font-semibold tracking-tight">Credence</h1>
      <p className="mb-8 mt-1 text-sm text-zinc-600 dark:text-zinc-400">Sign in to your belief graphs.</p>
      <SignInForm callbackUrl={target} />
      {env.oidcEnabled ? (
        <form action={oidcSignInAction} className="mt-4">
          <input type="hidden" name="callbackUrl" value={target} />
          <button type="submit" className={`${secondaryButtonClass} w-full`}>
            Continue with single sign-on
          </button>
        </form>
      ) : null}
    </main>
  );
}
