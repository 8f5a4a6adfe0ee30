/** Types of eslint.config.mjs for the TypeScript that reads it (lib/layers.test.ts). */
export declare const LAYERS: readonly { readonly name: string; readonly paths: readonly string[] }[];
declare const config: unknown;
export default config;
