// Preloaded (node --require) into the Prism processes that scripts/lib/prism-process.ts starts: when the process
// that started Prism goes away, however it ends (even SIGKILL), its end of the IPC channel closes and Prism stops
// too, so no Prism outlives its owner.
'use strict';
if (typeof process.send === 'function' && process.channel) {
  process.channel.unref();
  process.on('disconnect', () => process.exit(0));
}
