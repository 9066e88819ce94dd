import type { AccountView } from '../../src-shared/ipc/ipc-contract.js';

export function AccountPage(props: { account: AccountView; accounts: AccountView[]; onAddAccount: () => void }) {
  return <h1>Account {props.account.username}</h1>;
}
