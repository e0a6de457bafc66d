"""The production server command stops cleanly: gunicorn's SIGTERM (its graceful stop)
ends it with status 0 and no error line, and it logs nothing about ASGI lifespan."""

import subprocess

from bench.embedded_bench import embedded_environment
from bench.load_server import ROOT, free_port, server_command, wait_until_serving


def test_sigterm_stops_the_server_with_status_0_and_no_error_logged(tmp_path):
    # The embedded default, on a scratch SQLite file: all that /healthz and a stop need.
    env = embedded_environment(str(tmp_path))
    port = free_port()
    log_path = tmp_path / "server.log"
    with log_path.open("wb") as log:
        # One worker: once it answers, it is serving (a stop during a worker's boot, before
        # gunicorn's post_worker_init hook has run, still dies of the signal).
        server = subprocess.Popen(
            server_command(port, workers=1), cwd=ROOT, env=env, stdout=log, stderr=log
        )
        try:
            wait_until_serving(f"http://127.0.0.1:{port}", server)
        finally:
            server.terminate()
            status = server.wait(timeout=60)
    lines = log_path.read_text().splitlines()

    assert status == 0
    assert any("Booting worker" in line for line in lines)
    assert [line for line in lines if "[ERROR]" in line or "Traceback" in line] == []
    assert [line for line in lines if "lifespan" in line.lower()] == []
