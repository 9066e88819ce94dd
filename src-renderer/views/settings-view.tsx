import type { AccountView } from '../../src-shared/ipc/ipc-contract.js';

export function SettingsView({ account, accounts }: { account: AccountView; accounts: AccountView[] }) {
  void account;
  void accounts;
  return <h1>SettingsView</h1>;
}
