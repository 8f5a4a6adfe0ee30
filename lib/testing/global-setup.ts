/**
 * Vitest global setup: starts the backends the integration and contract suites need, and exposes their addresses
 * through `provide` (read them with `inject`). Filled in as backends arrive.
 */
export default async function setup(): Promise<() => Promise<void>> {
  return async () => {};
}
