import 'react';

declare module 'react' {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars -- the augmented interface keeps React's type parameter
  interface HTMLAttributes<T> {
    /** Element Timing API: the browser reports when this element was first painted, under this name */
    elementtiming?: string;
  }
}
