/**
 * Test fixture run as a separate process (`tsx lib/db/hold-data-folder.ts <dataDir> <owner>`): opens the
 * embedded database like a server would, prints "ready" and holds the folder until its stdin closes.
 */
import { openDatabase } from "./database";

const [dataDir, owner] = process.argv.slice(2);
const db = await openDatabase({ dataDir, owner: owner ?? "credence test holder", ifHeld: "fail" });
process.stdout.write(`ready ${process.pid} ${db.mode}\n`);
process.stdin.resume();
process.stdin.on("end", () => {
  void db.close().then(() => process.exit(0));
});
