/**
 * Calls `fn` at most once per `intervalMs` with the latest value, and once more
 * at the end of a quiet interval so the last value is never lost (a stalled
 * download still shows the bytes it got).
 */
export function throttleLatest<T>(fn: (value: T) => void, intervalMs: number) {
  let last = 0;
  let pending: { value: T } | undefined;
  let timer: NodeJS.Timeout | undefined;
  const flush = () => {
    timer = undefined;
    if (!pending) return;
    const { value } = pending;
    pending = undefined;
    last = Date.now();
    fn(value);
  };
  return {
    call(value: T) {
      pending = { value };
      if (timer) return;
      const wait = last + intervalMs - Date.now();
      if (wait <= 0) flush();
      else timer = setTimeout(flush, wait);
    },
    cancel() {
      clearTimeout(timer);
      timer = undefined;
      pending = undefined;
    },
  };
}
