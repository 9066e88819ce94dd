import type { UpdateStatus } from '../../src-shared/model/update-status.js';
import { useEvent, useQuery, type Query } from '../bridge/bridge-context.js';

/**
 * The app's own update status: read at start (and after a reconnection),
 * then kept by `app:updateChanged`. `set` takes the answer of a check.
 */
export function useUpdateStatus(): Query<UpdateStatus> {
  const status = useQuery('app:updateStatus', {});
  useEvent('app:updateChanged', status.set);
  return status;
}
