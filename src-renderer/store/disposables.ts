/**
 * What an owner must release when it goes (its subscriptions to the core's
 * events, a timer, the stores it made), registered as each is made and
 * released in reverse, once: no teardown list kept by hand.
 */
export class Disposables {
  private readonly releases: Array<() => unknown> = [];

  add(release: () => unknown): void {
    this.releases.push(release);
  }

  dispose(): void {
    for (const release of this.releases.splice(0).reverse()) release();
  }
}
