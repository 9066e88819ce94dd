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

/**
 * What one owner must undo, kept together (VS Code's DisposableStore): `add`
 * takes a Disposable or an unsubscribe function; `dispose` undoes each once,
 * newest first, and whatever is added after that is undone at once.
 */
export class DisposableStore implements Disposable {
  private readonly items: Disposable[] = [];
  private disposed = false;

  add<T extends Disposable | (() => unknown)>(item: T): T {
    const disposable: Disposable = typeof item === 'function' ? { dispose: () => void item() } : item;
    if (this.disposed) disposable.dispose();
    else this.items.push(disposable);
    return item;
  }

  dispose(): void {
    this.disposed = true;
    for (const item of this.items.splice(0).reverse()) item.dispose();
  }
}
