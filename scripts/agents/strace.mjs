// Reading `strace -f -e trace=connect` logs: which connections left the machine.

/** connect() calls of a strace log that reach something other than loopback or a local socket. */
export function nonLoopbackConnects(log) {
  const out = [];
  let loopback = 0;
  for (const line of log.split('\n')) {
    if (!/\bconnect\(/.test(line)) continue;
    if (/sa_family=AF_UNIX/.test(line)) continue;
    const v4 = /sin_addr=inet_addr\("([\d.]+)"\)/.exec(line);
    const v6 = /inet_pton\(AF_INET6, "([^"]+)"/.exec(line);
    const addr = v4?.[1] ?? v6?.[1];
    if (addr === '127.0.0.1' || addr === '::1' || addr === '::ffff:127.0.0.1') loopback++;
    else if (/sa_family=AF_UNSPEC/.test(line)) continue; // disconnects a UDP socket: no traffic
    else out.push(line.trim());
  }
  return { others: out, loopback };
}
