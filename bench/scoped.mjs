// Everything the bench starts is stopped, whatever happens: a body registers a stop for each server
// or client the moment it exists, and they all run, last first, when the body ends or throws.

/**
 * Runs `body(defer)`; every function passed to `defer` runs after the body, last registered first,
 * each awaited, even if the body or an earlier stop threw. A failed stop is reported, not thrown,
 * so it never hides the body's own error.
 */
export async function scoped(body) {
  const stops = [];
  try {
    return await body((stop) => stops.push(stop));
  } finally {
    for (const stop of stops.reverse()) {
      try {
        await stop();
      } catch (error) {
        console.error(
          `bench: a stop step failed: ${error instanceof Error ? error.message : error}`,
        );
      }
    }
  }
}
