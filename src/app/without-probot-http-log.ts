import { type Logger, pino } from 'pino';

/**
 * The logger to hand Probot's Server: the same as `log`, except that the child Probot's Server
 * makes for its pino-http request log (`log.child({ name: "http" })`, probot/lib/server)
 * writes nothing. That log writes every request at info with all its headers and the full URL
 * (OAuth codes and states in the board's callback and Probot's setup), and Probot 14 gives no
 * way to configure it; requestLog writes the app's own line instead.
 */
export function withoutProbotHttpLog(log: Logger): Logger {
  const server = log.child({});
  const child = server.child.bind(server);
  server.child = ((bindings, options) =>
    bindings?.name === 'http' && options === undefined
      ? silentLogger()
      : child(bindings, options)) as Logger['child'];
  return server;
}

// Its children are itself: pino-http makes one per request with the request as a binding,
// which pino would serialise (headers and all) even at level silent.
function silentLogger(): Logger {
  const silent = pino({ level: 'silent' });
  silent.child = (() => silent) as unknown as Logger['child'];
  return silent;
}
