import type { AccountView } from '../../src-shared/ipc/ipc-contract.js';

export function FilesView({ account }: { account: AccountView }) {
  void account;
  return <h1>FilesView</h1>;
}
