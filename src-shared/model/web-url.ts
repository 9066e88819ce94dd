/** The parts of a WHATWG URL that src-shared reads. */
export interface WebUrl {
  readonly protocol: string;
  readonly host: string;
  readonly port: string;
  readonly pathname: string;
  readonly search: string;
  readonly hash: string;
  readonly username: string;
  readonly password: string;
}

/*
 * The WHATWG URL parser exists in every runtime of src-shared (Node, browsers,
 * Electron), but the shared tsconfig has neither DOM nor Node types: declared
 * here, for this module only, as far as it is used.
 */
declare const URL: new (input: string) => WebUrl;

/** `text` parsed as browsers and Node parse addresses, or null when it is not one. */
export function parseWebUrl(text: string): WebUrl | null {
  try {
    return new URL(text);
  } catch {
    return null;
  }
}
