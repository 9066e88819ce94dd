import type { AccountView } from '../../src-shared/ipc/ipc-contract.js';

export function QueueView({ account, accounts }: { account: AccountView; accounts: AccountView[] }) {
  void account;
  void accounts;
  return <h1>QueueView</h1>;
}
