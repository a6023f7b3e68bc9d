import { describeLimitStoreConcurrency } from '../../testing/contracts/limit-store-concurrency-contract.js';
import { describeLimitStoreModel } from '../../testing/contracts/limit-store-model-contract.js';
import { MemoryLimitStore } from './memory-limit-store.js';

const fresh = () => Promise.resolve({ store: new MemoryLimitStore() });

describeLimitStoreModel('MemoryLimitStore', fresh, {
  numRuns: 500,
});

describeLimitStoreConcurrency('MemoryLimitStore', fresh);
