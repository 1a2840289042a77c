// What the long-running commands (mock, proxy, mcp --http) share: they serve until a signal, or until the process that started
// them goes away.
import { whenLauncherGone } from './launcher-watch.js';

/**
 * Stops `stop` on SIGINT, SIGTERM, SIGHUP or when the launching process goes; a second signal forces the exit. Call
 * it before the first line is printed: until then a signal kills the process at once (Node's default), and one sent
 * by whoever read the banner would cut the lines after it (a warning, the summary).
 */
export function stopOnSignals(what: string, stop: () => Promise<void>, after: () => void = () => {}) {
  let stopping = false;
  const shutdown = (why: string) => {
    if (stopping) process.exit(1);
    stopping = true;
    console.log(why);
    void stop().then(() => {
      after();
      process.exit(0);
    });
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => shutdown(`${signal}: stopping the ${what}.`));
  // Started by a process that has gone (npm stopped by SIGTERM ends its shell but not this one; a closed
  // terminal; a test runner that died): stop rather than linger.
  whenLauncherGone(() => shutdown(`The process that started the ${what} has gone: stopping.`));
}
