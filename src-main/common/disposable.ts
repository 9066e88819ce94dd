/** Something to undo: a listener to remove, a watcher to close (VS Code's Disposable). */
export interface Disposable {
  dispose(): void;
}

/** A typed event source: `onDidX(listener)` returns a Disposable that removes the listener. */
export class Emitter<T> {
  private readonly listeners = new Set<(value: T) => void>();

  readonly event = (listener: (value: T) => void): Disposable => {
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
