import NextAuth, { CredentialsSignin, type NextAuthConfig } from "next-auth";
import Credentials from "next-auth/providers/credentials";
import type { Provider } from "next-auth/providers";
import { z } from "zod";
import { getEnv } from "@/lib/env";

const credentialsSchema = z.object({
  email: z.string().trim().toLowerCase().email(),
  password: z.string().min(1).max(1024),
});

/** The application layer's sign-in services, loaded on first use (this module is imported by every page). */
async function signInServices() {
  const { getBeliefServices } = await import("@/lib/beliefs/get-belief-services");
  return getBeliefServices();
}

class InvalidCredentials extends CredentialsSignin {
  override code = "invalid_credentials";
}

function providers(): Provider[] {
  const env = getEnv();
  const list: Provider[] = [
    Credentials({
      name: "Email and password",
      credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
      async authorize(raw) {
        const parsed = credentialsSchema.safeParse(raw);
        if (!parsed.success) throw new InvalidCredentials();
        const services = await signInServices();
        const user = await services.verifyCredentials(parsed.data.email, parsed.data.password);
        if (!user) throw new InvalidCredentials();
        return { id: user.id, email: user.email, name: user.name ?? user.email };
      },
    }),
  ];
  // Any OIDC provider (Keycloak, Auth0, Google Workspace…) when its three variables are set.
  if (env.oidcEnabled && env.AUTH_OIDC_ISSUER) {
    list.push({
      id: "oidc",
      name: "Single sign-on",
      type: "oidc",
      issuer: env.AUTH_OIDC_ISSUER,
      clientId: env.AUTH_OIDC_ID,
      clientSecret: env.AUTH_OIDC_SECRET,
    });
  }
  return list;
}

export const authConfig = (): NextAuthConfig => ({
  // Credentials sign-in requires JWT sessions (STACK.md).
  session: { strategy: "jwt", maxAge: 30 * 24 * 60 * 60 },
  trustHost: true,
  pages: { signIn: "/signin" },
  providers: providers(),
  callbacks: {
    async signIn({ user, account }) {
      if (account?.provider !== "oidc") return true;
      // OIDC users are matched or created by email, so the CLI and invitations work the same for both kinds.
      if (!user.email) return false;
      const local = await (await signInServices()).ensureUserForEmail(user.email, user.name ?? undefined);
      user.id = local.id;
      return true;
    },
    jwt({ token, user }) {
      if (user?.id) token.sub = user.id;
      return token;
    },
    session({ session, token }) {
      if (token.sub) session.user.id = token.sub;
      return session;
    },
  },
});

export const { handlers, auth, signIn, signOut } = NextAuth(authConfig);
