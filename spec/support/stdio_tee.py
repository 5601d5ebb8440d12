"""A stdio server run behind a recorder: every line each side writes is kept, for wire checks.

    python stdio_tee.py LOG_PATH COMMAND [ARGS...]

Starts ``COMMAND`` and copies lines between this process's stdin/stdout and the child's, as
they are, appending each to LOG_PATH as one JSON line: ``{"from": "client" | "server",
"line": <the line as text>}``. Ends when either side closes.
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import typing as t


def main() -> None:
    log_path, command = sys.argv[1], sys.argv[2:]
    child = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert child.stdin is not None and child.stdout is not None
    log = open(log_path, "a", encoding="utf-8")
    lock = threading.Lock()

    def copy(source: t.BinaryIO, target: t.BinaryIO, side: str) -> None:
        for line in iter(source.readline, b""):
            with lock:
                log.write(json.dumps({"from": side, "line": line.decode("utf-8")}) + "\n")
                log.flush()
            target.write(line)
            target.flush()
        target.close()

    to_server = threading.Thread(target=copy, args=(sys.stdin.buffer, child.stdin, "client"), name="tee-client", daemon=True)
    to_server.start()
    copy(child.stdout, sys.stdout.buffer, "server")
    child.wait(timeout=30)
    log.close()


if __name__ == "__main__":
    main()
