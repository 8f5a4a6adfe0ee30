import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { scriptCommand } from "@/lib/ops/compiled-script";

export type RunResult = { code: number | null; stdout: string; stderr: string };

/**
 * Runs a repository script (`bin/cli.ts`…) to completion as its own process, with extra environment variables.
 * It runs compiled (lib/ops/compiled-script.ts): a fresh process each time, without tsx's start-up on every call.
 */
export function runScript(script: string, args: string[], env: Record<string, string>, stdin = ""): Promise<RunResult> {
  const { command, args: argv } = scriptCommand(script, args);
  return runProcess(command, argv, env, stdin);
}

/** Runs `node -e code` to completion (e.g. for the pid of a process that has surely exited). */
export function runNodeEval(code: string): Promise<RunResult> {
  return runProcess(process.execPath, ["-e", code], {}, "");
}

function runProcess(command: string, args: string[], env: Record<string, string>, stdin: string): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin);
  });
}

/** Starts a process that holds `dataDir` (lib/db/hold-data-folder.ts); resolves once it is ready. */
export async function holdDataFolder(dataDir: string, owner: string): Promise<{ pid: number; release(): Promise<void> }> {
  const { command, args } = scriptCommand(path.join("lib", "db", "hold-data-folder.ts"), [dataDir, owner]);
  const child: ChildProcess = spawn(command, args, { stdio: ["pipe", "pipe", "pipe"] });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
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
