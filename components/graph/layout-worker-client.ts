/** How the canvas gets its layout worker: the bundler (Next.js) emits layout-worker.ts as a separate worker script. */
export type LayoutWorkerFactory = () => Worker;

// The bundler recognises exactly `new Worker(new URL("…", import.meta.url))` and bundles the file as a worker entry.
export const defaultLayoutWorker: LayoutWorkerFactory = () => new Worker(new URL("./layout-worker.ts", import.meta.url));
