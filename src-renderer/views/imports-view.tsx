import type { AccountView } from '../../src-shared/ipc/ipc-contract.js';

export function ImportsView({ account }: { account: AccountView }) {
  void account;
  return <h1>ImportsView</h1>;
}
