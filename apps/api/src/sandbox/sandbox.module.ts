import { Module } from '@nestjs/common';
import { ExecutionProviders } from './execution-providers.js';

/**
 * The code-execution providers of `sandbox:` (issue 23): agents whose `execution:` names one get the
 * Execute tool over it; the providers close (every sandbox killed) when the application shuts down.
 */
@Module({
  providers: [ExecutionProviders],
  exports: [ExecutionProviders],
})
export class SandboxModule {}
