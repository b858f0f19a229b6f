#!/usr/bin/env python3
"""A stdio MCP server behind a TCP socket, for the tcp example transport.

    tcp_server.py COMMAND [ARG...]

Listens on 127.0.0.1 (a port the system picks), prints "listening on
PORT", and runs COMMAND for each connection with the socket as its stdin
and stdout: newline-delimited JSON-RPC either way, as the tcp transport
speaks it. "connection N" goes to stderr as each one is accepted.
"""
import socket
import subprocess
import sys


def main():
    srv = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    srv.bind(("127.0.0.1", 0))
    srv.listen(8)
    print("listening on %d" % srv.getsockname()[1], flush=True)
    children = []
    n = 0
    while True:
        conn, _ = srv.accept()
        n += 1
        print("connection %d" % n, file=sys.stderr, flush=True)
        children.append(subprocess.Popen(sys.argv[1:], stdin=conn.fileno(),
                                         stdout=conn.fileno()))
        conn.close()  # the child holds it now
        children = [c for c in children if c.poll() is None]


if __name__ == "__main__":
    main()
