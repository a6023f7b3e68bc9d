import { describeLimitStoreContract } from '../../testing/contracts/limit-store-contract.js';
import { MemoryLimitStore } from './memory-limit-store.js';

describeLimitStoreContract('MemoryLimitStore', () => Promise.resolve({ store: new MemoryLimitStore() }));
