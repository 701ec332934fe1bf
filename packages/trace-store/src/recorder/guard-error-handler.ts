/** `handler`, made safe to call: an error it throws itself is ignored, so it never reaches a lookup or a store. */
export function guardErrorHandler<E>(handler: (error: E) => void): (error: E) => void {
  return (error: E): void => {
    try {
      handler(error);
    } catch {
      // The handler's own failure is neither the lookup's nor the store's.
    }
  };
}
