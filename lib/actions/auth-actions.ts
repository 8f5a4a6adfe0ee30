"use server";

import { AuthError } from "next-auth";
import { signIn, signOut } from "@/lib/auth/auth";
import type { FormState } from "./safe-action";

function safeRedirect(target: FormDataEntryValue | null): string {
  // Only same-site paths: an open redirect would let a phishing link bounce through the sign-in page.
  return typeof target === "string" && target.startsWith("/") && !target.startsWith("//") ? target : "/";
}

export async function signInAction(_previous: FormState, formData: FormData): Promise<FormState> {
  try {
    await signIn("credentials", {
      email: formData.get("email"),
      password: formData.get("password"),
      redirectTo: safeRedirect(formData.get("callbackUrl")),
    });
    return { ok: true };
  } catch (error) {
    if (error instanceof AuthError) {
      return { ok: false, error: { code: "invalid_credentials", message: "That email and password do not match an account." } };
    }
    throw error; // the redirect after a successful sign-in is an exception Next.js handles
  }
}

export async function oidcSignInAction(formData: FormData): Promise<void> {
  await signIn("oidc", { redirectTo: safeRedirect(formData.get("callbackUrl")) });
}

export async function signOutAction(): Promise<void> {
  await signOut({ redirectTo: "/signin" });
}
