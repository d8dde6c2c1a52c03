// Loaded before dynalite (node -r guard.js cli.js): dynalite 4.0.0 throws
// from a request's 'error' handler, so a client that drops a request
// mid-body (a cancelled context, a test that quits) kills the whole
// server and every later test sharing it. A dropped request ends only that
// request here; any other uncaught error still ends the process as before.
process.on('uncaughtException', function (err) {
  if (err && (err.code === 'ECONNRESET' || err.message === 'aborted')) {
    return
  }
  console.error(err)
  process.exit(1)
})
