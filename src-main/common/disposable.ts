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

  /** Whether anything listens: what only a listener would read need not be made. */
  get hasListeners(): boolean {
    return this.listeners.size > 0;
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

/** What an owner undoes: a Disposable (whose dispose may be async), or a function. */
export type Undoable = { dispose(): unknown } | (() => unknown);

/**
 * An owner of what it makes (VS Code's `Disposable._register`): each thing is
 * registered as it is made, and `dispose()` undoes them newest first, each
 * awaited before the one made before it (the queue stops before the
 * database it writes closes). What is registered after that is undone at once.
 */
export abstract class DisposableBase {
  private readonly undos: Array<() => unknown> = [];
  private disposing: Promise<void> | null = null;

  protected register<T extends Undoable>(item: T): T {
    const undo = undoOf(item);
    if (this.disposing) void this.disposing.then(undo);
    else this.undos.push(undo);
    return item;
  }

  dispose(): Promise<void> {
    this.disposing ??= (async () => {
      for (const undo of this.undos.splice(0).reverse()) await undo();
    })();
    return this.disposing;
  }
}

function undoOf(item: Undoable): () => unknown {
  return typeof item === 'function' ? item : () => item.dispose();
}
