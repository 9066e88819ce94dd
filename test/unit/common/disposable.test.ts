import { describe, expect, it } from 'vitest';
import { DisposableStore, Emitter } from '../../../src-main/common/disposable.js';

describe('DisposableStore', () => {
  it('undoes everything it was given once, newest first, functions and Disposables alike', () => {
    const undone: string[] = [];
    const store = new DisposableStore();
    store.add({ dispose: () => undone.push('first') });
    store.add(() => undone.push('second'));
    store.dispose();
    store.dispose();
    expect(undone).toEqual(['second', 'first']);
  });

  it('undoes at once what is added after it was disposed: a late subscription does not leak', () => {
    const emitter = new Emitter<number>();
    const heard: number[] = [];
    const store = new DisposableStore();
    store.dispose();
    store.add(emitter.event((value) => heard.push(value)));
    emitter.fire(1);
    expect(heard).toEqual([]);
  });
});
