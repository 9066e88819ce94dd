/** Something to undo: a listener to remove, a watcher to close (VS Code's Disposable). */
export interface Disposable {
  dispose(): void;
}

/** Subscribing to an event: VS Code's `Event<T>`. */
export type Event<T> = (listener: (value: T) => void) => Disposable;

/** A typed event source: `onDidX(listener)` returns a Disposable that removes the listener. */
export class Emitter<T> {
  private readonly listeners = new Set<(value: T) => void>();

  readonly event: Event<T> = (listener) => {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  };

  fire(value: T): void {
    for (const listener of [...this.listeners]) listener(value);
  }

  dispose(): void {
    this.listeners.clear();
  }
}
