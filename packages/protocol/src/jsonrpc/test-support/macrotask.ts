// For tests of transports that are not the in-memory pair (web streams): one macrotask hop.
// The event loop starts a macrotask only once the microtask queue is empty, so when this resolves
// every promise reaction that could run without a timer or I/O has run. The real `setImmediate`
// is taken at load time, so fake timers installed by a test do not stall it.
const realSetImmediate = setImmediate;

export function microtasksDrained(): Promise<void> {
  return new Promise((resolve) => realSetImmediate(resolve));
}
