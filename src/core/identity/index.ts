import type { Store } from '../../store/index.js';
import type { SecretKeys } from './keys.js';
import { createStoreVault } from './store-vault.js';
import type { IdentityVault } from './vault.js';

export {
  type Asker,
  CONNECT_UNAVAILABLE,
  Connections,
  type ConnectionsOptions,
  type ConnectOutcome,
  type Standing,
} from './connect.js';
export { keyIdOf, type SecretKeys } from './keys.js';
export { createLockedVault } from './store-vault.js';
export {
  type BoundToken,
  boundTo,
  type Connection,
  type IdentityVault,
  type PersonRef,
  type ServicePlace,
} from './vault.js';

/** Each person's own service token, kept in `store` encrypted under `keys` (docs/security.md). */
export function createVault(store: Store, keys: SecretKeys): IdentityVault {
  return createStoreVault(store, keys);
}
