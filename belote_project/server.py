"""How production serves the API: gunicorn's configuration module and its worker class.

Every gunicorn command of the project loads it (`gunicorn -c python:belote_project.server
belote_project.asgi:application`): the worker class, and the server hook below, are
settings of gunicorn's documented configuration file format.

The worker class is uvicorn's, through `uvicorn_worker.UvicornWorker`'s documented way
to configure uvicorn (a subclass with other `CONFIG_KWARGS`, options of uvicorn's
`Config`):
- `proxy_headers=False`: uvicorn would otherwise replace the client address with the
  last `X-Forwarded-For` entry of any request from an address in gunicorn's
  `forwarded_allow_ips` (127.0.0.1 by default), before DRF's throttles see it. The
  client address is the peer's; DRF's `NUM_PROXIES` alone decides whether and how far
  `X-Forwarded-For` is trusted (README "Configuration").
- `lifespan="off"`: Django's application has no lifespan protocol; uvicorn's probe of
  it only logs that it is unsupported.
"""

import signal
import sys
from types import FrameType
from typing import Any

from uvicorn_worker import UvicornWorker


class Worker(UvicornWorker):  # type: ignore[misc]
    CONFIG_KWARGS: dict[str, Any] = {
        **UvicornWorker.CONFIG_KWARGS,
        "proxy_headers": False,
        "lifespan": "off",
    }


worker_class = "belote_project.server.Worker"

#: the signals that stop a worker gracefully: gunicorn's arbiter sends SIGTERM on a
#: graceful stop, and a terminal's Ctrl-C reaches a worker as SIGINT
STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)


def _exit_stopped(signum: int, frame: FrameType | None) -> None:
    sys.exit(0)


def post_worker_init(worker: Any) -> None:
    """Gunicorn's hook, run in each worker before it serves: a stop signal, once uvicorn
    has shut down gracefully, ends the worker with status 0.

    Uvicorn catches SIGTERM and SIGINT while it serves, drains its connections, then
    restores the handlers it found and raises the signal again, so that the process ends
    the way it was asked to. The handler it finds is this one: the stop the arbiter
    asked for is a clean exit, which the arbiter does not log as an error (a worker
    killed by a signal, it does: "Worker (pid:N) was sent SIGTERM!").
    """
    for signum in STOP_SIGNALS:
        signal.signal(signum, _exit_stopped)
