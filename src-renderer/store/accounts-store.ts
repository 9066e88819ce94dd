import type { IpcRequest } from '../../src-shared/ipc/ipc-contract.js';
import type { AppBridge } from '../bridge/app-bridge.js';
import { ReadStore } from './store.js';

/** The signed-in accounts: `account:list`, kept by `account:changed`, which each of these actions brings. */
export class AccountsStore extends ReadStore<'account:list'> {
  constructor(bridge: AppBridge) {
    super(bridge, 'account:list', {}, 'account:changed');
  }

  signIn(request: IpcRequest<'account:signIn'>) {
    return this.bridge.invoke('account:signIn', request);
  }

  /** "Try it locally": the demo account on the bundled reference server. */
  startDemo() {
    return this.bridge.invoke('account:startDemo', {});
  }

  signOut(accountId: string) {
    return this.bridge.invoke('account:signOut', { accountId });
  }
}
