import type { ReactNode } from 'react';
import type { AccountView } from '../../src-shared/ipc/ipc-contract.js';

export function DropUpload({ children }: { account: AccountView; children: ReactNode }) {
  return <>{children}</>;
}
