"""One command: a Redis server and four gunicorn workers sharing it, on http://127.0.0.1:8000/mcp.

    python -m examples.scale_out [--workers 4] [--port 8000] [--redis-port 6379]

Needs ``redis-server`` on the PATH (Debian: ``apt-get install redis-server``) and
``pip install 'mcp_sdk[redis]' gunicorn``. Ctrl-C stops both.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--redis-port", type=int, default=6379)
    args = parser.parse_args(argv)
    redis_server = shutil.which("redis-server")
    if redis_server is None:
        sys.exit("redis-server is not on the PATH (Debian: apt-get install redis-server)")
    redis = subprocess.Popen([redis_server, "--port", str(args.redis_port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"])
    env = {**os.environ, "MCP_REDIS_URL": f"redis://127.0.0.1:{args.redis_port}/0"}
    command = [sys.executable, "-m", "gunicorn", "-k", "gthread", "--threads", "16", "-w", str(args.workers)]
    command += ["--keep-alive", "30", "-b", f"127.0.0.1:{args.port}", "examples.scale_out.app:app"]
    print(f"MCP server on http://127.0.0.1:{args.port}/mcp ({args.workers} workers, Redis on {args.redis_port})", file=sys.stderr)
    try:
        subprocess.run(command, env=env, check=False)
    except KeyboardInterrupt:
        pass
    finally:
        redis.terminate()
        redis.wait(10)


if __name__ == "__main__":
    main()
