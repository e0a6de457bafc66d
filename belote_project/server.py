"""The gunicorn worker class production runs: uvicorn's, through its documented hook.

`uvicorn_worker.UvicornWorker` documents subclassing it with other `CONFIG_KWARGS`
(options of uvicorn's `Config`) as the way to configure uvicorn under gunicorn.
- `proxy_headers=False`: uvicorn would otherwise replace the client address with the
  last `X-Forwarded-For` entry of any request from an address in gunicorn's
  `forwarded_allow_ips` (127.0.0.1 by default), before DRF's throttles see it. The
  client address is the peer's; DRF's `NUM_PROXIES` alone decides whether and how far
  `X-Forwarded-For` is trusted (README "Configuration").
- `lifespan="off"`: Django's application has no lifespan protocol; uvicorn's probe of
  it only logs that it is unsupported.
"""

from typing import Any

from uvicorn_worker import UvicornWorker


class Worker(UvicornWorker):  # type: ignore[misc]
    CONFIG_KWARGS: dict[str, Any] = {
        **UvicornWorker.CONFIG_KWARGS,
        "proxy_headers": False,
        "lifespan": "off",
    }
