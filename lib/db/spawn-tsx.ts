import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";

/** The repository's tsx binary (npx adds a second or more per spawn). */
export const TSX = path.join(process.cwd(), "node_modules", ".bin", "tsx");

export type RunResult = { code: number | null; stdout: string; stderr: string };

/** Runs `tsx script args…` to completion with extra environment variables. */
export function runTsx(script: string, args: string[], env: Record<string, string>): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(TSX, [script, ...args], { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** Starts a process that holds `dataDir` (lib/db/hold-data-folder.ts); resolves once it is ready. */
export async function holdDataFolder(dataDir: string, owner: string): Promise<{ pid: number; release(): Promise<void> }> {
  const child: ChildProcess = spawn(TSX, [path.join(process.cwd(), "lib/db/hold-data-folder.ts"), dataDir, owner], {
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  // tsx runs the script in a child node process: the holder reports its own pid.
  const pid = await new Promise<number>((resolve, reject) => {
    child.stdout?.on("data", (chunk: Buffer) => {
      const match = /ready (\d+)/.exec(chunk.toString());
      if (match) resolve(Number(match[1]));
    });
    child.on("exit", (code) => reject(new Error(`holder exited with ${code}: ${stderr}`)));
  });
  const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));
  return {
    pid,
    async release() {
      child.stdin?.end();
      await exited;
    },
  };
}
