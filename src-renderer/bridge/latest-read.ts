/**
 * The page's one way to drop stale answers: each read `start`s and gets a
 * check that says whether it is still the latest; an answer is used only
 * then. `supersede()` makes every read on its way stale: a newer value came
 * another way (an event, an action's answer), or the one who asked is gone.
 */
export class LatestRead {
  private latest = 0;

  start(): () => boolean {
    const read = ++this.latest;
    return () => read === this.latest;
  }

  supersede(): void {
    this.latest++;
  }
}
