import { writeFile } from "node:fs/promises";

const say = (line: string) => process.stderr.write(`${line}\n`);

/** A CPU profiler of this process (the app and the load generator), started and stopped around each load. */
export async function profilerSession() {
  const { Session } = await import("node:inspector/promises");
  const session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  return {
    start: () => session.post("Profiler.start"),
    async stop(path: string) {
      const { profile } = await session.post("Profiler.stop");
      await writeFile(path, JSON.stringify(profile));
      say(`CPU profile written to ${path}`);
    },
  };
}
